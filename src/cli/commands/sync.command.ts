import { RunInProgressError, RunMode, RunSummary, SyncService } from '../../engine';
import type { ProgressEvent } from '../../engine';
import { SecretScrubber } from '../../admin';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { progressReporter } from '../output/progress-reporter';
import { rejectedLines, streamSummaryLines } from '../output/run-summary.format';

export interface SyncCommandOptions {
  full?: boolean;
  since?: string;
}

/**
 * One run in the foreground: progress while it goes, then a summary line per stream and the first
 * rejected records. Exit code 0 when the run succeeded (rejected records alone do not fail it).
 */
export async function syncCommand(ctx: CliContext, out: CliOutput, connectionId: string, options: SyncCommandOptions): Promise<number> {
  const sync = ctx.app.get(SyncService);
  const { mode, since } = runMode(options);
  let started: { runId: number; done: Promise<RunSummary> };
  const progress = progressReporter(out);
  const onProgress = (event: ProgressEvent) => {
    if (event.connectionId === connectionId) progress.update(event);
  };
  sync.events.on('progress', onProgress);
  try {
    started = await sync.start(connectionId, { mode, since, trigger: 'cli' });
    out.line(`connection ${connectionId}: run ${started.runId} started (${mode}${since ? ` since ${since}` : ''})`);
    const summary = await started.done;
    progress.stop();
    printSummary(ctx, out, summary);
    return summary.status === 'succeeded' ? 0 : 1;
  } catch (error) {
    progress.stop();
    if (error instanceof RunInProgressError) {
      out.error(`connection ${connectionId}: a run is already going${error.runId != null ? ` (run ${error.runId})` : ''}; try again when it ends`);
      return 1;
    }
    throw error;
  } finally {
    sync.events.off('progress', onProgress);
  }
}

function runMode(options: SyncCommandOptions): { mode: RunMode; since?: string } {
  if (options.since) return { mode: 'since', since: options.since };
  return { mode: options.full ? 'full' : 'incremental' };
}

function printSummary(ctx: CliContext, out: CliOutput, summary: RunSummary): void {
  const scrubber = ctx.app.get(SecretScrubber);
  const seconds = summary.finishedAt ? (Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)) / 1000 : null;
  out.line(`run ${summary.runId} ${summary.status}${seconds != null ? ` in ${seconds.toFixed(2)} s` : ''}`);
  for (const line of streamSummaryLines(summary.streams, { ...summary.counters })) out.line(line);
  for (const line of rejectedLines(summary.rejected, summary.rejectedCount)) out.line(scrubber.text(line));
  if (summary.error) out.error(`error: ${scrubber.text(summary.error)}`);
}
