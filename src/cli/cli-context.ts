import type { INestApplicationContext } from '@nestjs/common';
import type { TrackerSyncConfig } from '../config';

/** What a command gets: the booted services (no admin HTTP), the validated config, and how to answer. */
export interface CliContext {
  app: INestApplicationContext;
  config: TrackerSyncConfig;
  /** `--json`: print what the admin API would answer, instead of text */
  json: boolean;
}
