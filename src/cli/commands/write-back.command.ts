import { RunTriggerService, SecretScrubber } from '../../application';
import { SyncService } from '../../engine';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { writeBackPreviewLines } from '../output/write-back.format';
import { followRun } from './follow-run';

export interface WriteBackCommandOptions {
  dryRun?: boolean;
}

/**
 * A write-back pass in the foreground (a run of mode write_back, then its counters), or with `--dry-run`
 * each deal whose values changed and what would be written into which field: nothing written or stored.
 */
export async function writeBackCommand(ctx: CliContext, out: CliOutput, connectionId: string, options: WriteBackCommandOptions): Promise<number> {
  const sync = ctx.app.get(SyncService);
  if (options.dryRun) {
    const preview = await sync.writeBackPreview(connectionId);
    if (ctx.json) printJson(ctx, out, preview);
    else for (const line of writeBackPreviewLines(ctx.app.get(SecretScrubber).scrub(preview))) out.line(line);
    return 0;
  }
  return followRun(
    ctx,
    out,
    connectionId,
    () => ctx.app.get(RunTriggerService).start(connectionId, 'cli', { kind: 'outbound', flow: 'write_back' }),
    (runId) => `connection ${connectionId}: write-back run ${runId} started`,
  );
}
