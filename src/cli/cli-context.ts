import type { INestApplicationContext } from '@nestjs/common';
import type { TrackerSyncConfig } from '../config';

/** What a command gets: the booted services (no admin HTTP), and the validated config. */
export interface CliContext {
  app: INestApplicationContext;
  config: TrackerSyncConfig;
}
