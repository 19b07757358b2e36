import { RunTriggerService } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { followRun } from './follow-run';

export interface SyncCommandOptions {
  full?: boolean;
  since?: string;
}

/** One run in the foreground, then its summary (see followRun). */
export async function syncCommand(ctx: CliContext, out: CliOutput, connectionId: string, options: SyncCommandOptions): Promise<number> {
  const { mode, since } = runMode(options);
  return followRun(
    ctx,
    out,
    connectionId,
    () => ctx.app.get(RunTriggerService).start(connectionId, 'cli', { kind: 'sync', mode, since }),
    // mode `since` names itself: "since 2025-09-01", not "since since 2025-09-01"
    (runId) => `connection ${connectionId}: run ${runId} started (${since ? `since ${since}` : mode})`,
  );
}

function runMode(options: SyncCommandOptions): { mode: 'incremental' | 'full' | 'since'; since?: string } {
  if (options.since) return { mode: 'since', since: options.since };
  return { mode: options.full ? 'full' : 'incremental' };
}
