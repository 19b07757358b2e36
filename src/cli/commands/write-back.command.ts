import { RunTriggerService, SecretScrubber } from '../../application';
import { FlowEstimate, planLines, SyncService } from '../../engine';
import type { ProgressEvent } from '../../engine';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { progressReporter } from '../output/progress-reporter';
import { writeBackPreviewLines } from '../output/write-back.format';
import { Asker, costConsented, needsConsent, terminalAsker } from './cost-consent';
import { followRun } from './follow-run';

export interface WriteBackCommandOptions {
  dryRun?: boolean;
  /** spend what the plan says without asking */
  yes?: boolean;
}

/**
 * A write-back pass in the foreground (a run of mode write_back, then its counters), or with `--dry-run`
 * each deal whose values changed and what would be written into which field: nothing written or stored.
 * Either begins with the pass's plan (how it reads the visits, in requests and time at the service's limits),
 * shown when the window holds more than its first page; a plan above CONFIRM_ABOVE_MINUTES needs a yes.
 */
export async function writeBackCommand(
  ctx: CliContext, out: CliOutput, connectionId: string, options: WriteBackCommandOptions, asker: Asker = terminalAsker(),
): Promise<number> {
  const sync = ctx.app.get(SyncService);
  // a connection that writes nothing back gets its refusal from the dry run or the start below
  const estimate = sync.writeBackPlan(connectionId) ? await sync.outboundEstimate(connectionId, 'write_back') : null;
  if (estimate && !ctx.json && (estimate.worthShowing || needsConsent(estimate))) {
    for (const line of planLines(connectionId, estimate)) out.line(line);
  }
  if (!(await costConsented(out, connectionId, options.dryRun ? 'dry run' : 'write-back', estimate, options.yes === true, asker))) return 1;
  if (options.dryRun) return dryRun(ctx, out, connectionId, estimate);
  return followRun(
    ctx,
    out,
    connectionId,
    () => ctx.app.get(RunTriggerService).start(connectionId, 'cli', { kind: 'outbound', flow: 'write_back' }),
    (runId) => `connection ${connectionId}: write-back run ${runId} started`,
  );
}

/** The dry run, with its progress while it reads (when it reads more than the window's first page). */
async function dryRun(ctx: CliContext, out: CliOutput, connectionId: string, estimate: FlowEstimate | null): Promise<number> {
  const sync = ctx.app.get(SyncService);
  const progress = progressReporter(out, { quiet: ctx.json || !estimate?.worthShowing });
  const onProgress = (event: ProgressEvent) => {
    if (event.connectionId === connectionId && event.runId === 0) progress.update(event);
  };
  sync.events.on('progress', onProgress);
  try {
    const preview = await sync.writeBackPreview(connectionId);
    progress.stop();
    if (ctx.json) printJson(ctx, out, preview);
    else for (const line of writeBackPreviewLines(ctx.app.get(SecretScrubber).scrub(preview))) out.line(line);
    return 0;
  } finally {
    progress.stop();
    sync.events.off('progress', onProgress);
  }
}
