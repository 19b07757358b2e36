import { RunActivityService, RunsQueryService, SecretScrubber } from '../../application';
import { RunInProgressError } from '../../engine';
import type { ProgressEvent, RunSummary } from '../../engine';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { progressReporter } from '../output/progress-reporter';
import { rejectedLines, streamSummaryLines } from '../output/run-summary.format';
import { flowCountersLine } from '../../application/flow-descriptions';

export interface StartedRun {
  runId: number;
  done: Promise<RunSummary>;
}

/**
 * A run in the foreground (sync, retry): progress while it goes, then a summary line per stream and the
 * first rejected records; `--json`: the finished run as GET /api/runs/{id} answers. Exit code 0 when the
 * run succeeded (rejected records alone do not fail it).
 */
export async function followRun(
  ctx: CliContext,
  out: CliOutput,
  connectionId: string,
  start: () => Promise<StartedRun>,
  startedText: (runId: number) => string,
): Promise<number> {
  const progress = progressReporter(out, { quiet: ctx.json });
  const stopListening = ctx.app.get(RunActivityService).onProgress((event: ProgressEvent) => {
    if (event.connectionId === connectionId) progress.update(event);
  });
  try {
    const started = await start();
    if (!ctx.json) out.line(startedText(started.runId));
    const summary = await started.done;
    progress.stop();
    if (ctx.json) printJson(ctx, out, await ctx.app.get(RunsQueryService).get(summary.runId));
    else printSummary(ctx, out, summary);
    return summary.status === 'succeeded' ? 0 : 1;
  } catch (error) {
    progress.stop();
    if (error instanceof RunInProgressError) {
      out.error(`connection ${connectionId}: a run is already going${error.runId != null ? ` (run ${error.runId})` : ''}; try again when it ends`);
      return 1;
    }
    throw error;
  } finally {
    stopListening();
  }
}

function printSummary(ctx: CliContext, out: CliOutput, summary: RunSummary): void {
  const scrubber = ctx.app.get(SecretScrubber);
  const seconds = summary.finishedAt ? (Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)) / 1000 : null;
  out.line(`run ${summary.runId} ${summary.status}${seconds != null ? ` in ${seconds.toFixed(2)} s` : ''}`);
  if (summary.flow) out.line(flowCountersLine(summary.flow, summary.flowCounters ?? {}));
  else for (const line of streamSummaryLines(summary.streams, { ...summary.counters })) out.line(line);
  for (const line of rejectedLines(summary.rejected, summary.rejectedCount)) out.line(scrubber.text(line));
  if (summary.error) out.error(`error: ${scrubber.text(summary.error)}`);
  if (summary.followedBy) printSummary(ctx, out, summary.followedBy); // the outbound runs that followed the sync
}
