import { RunsQueryService, RunTriggerService } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { followRun } from './follow-run';

const PAGE = 1_000;

/**
 * Sends a run's rejected records again (after they were fixed in the source), in a new run followed in the
 * foreground: what POST /api/runs/{id}/rejected/retry starts, through the same service.
 */
export async function retryCommand(ctx: CliContext, out: CliOutput, runId: number): Promise<number> {
  const runs = ctx.app.get(RunsQueryService);
  const run = await runs.get(runId);
  const retried = await retriedCount(runs, runId);
  return followRun(
    ctx,
    out,
    run.connection_id,
    () => ctx.app.get(RunTriggerService).retryRejected(runId, 'cli'),
    (newRunId) => `connection ${run.connection_id}: run ${newRunId} started (${retriedText(retried, run.rejected_count, runId)})`,
  );
}

/**
 * How many records the retry sends again, as the engine picks them (and its "run started" line counts them): the
 * run's rejections not resolved since, that have an id, one per stream and id. The run's `rejected_count` counts
 * every rejected row, also those without an id, a duplicate id's second row, and those sent since.
 */
async function retriedCount(runs: RunsQueryService, runId: number): Promise<number> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await runs.rejectedOf(runId, { limit: PAGE, offset });
    for (const row of page.rejected) if (!row.resolved && row.external_id) ids.add(`${row.stream}\u0000${row.external_id}`);
    if (page.rejected.length < PAGE) return ids.size;
  }
}

function retriedText(retried: number, rejected: number, runId: number): string {
  if (retried === rejected) return `retrying the ${rejected} rejected record(s) of run ${runId}`;
  return `retrying ${retried} of the ${rejected} rejected record(s) of run ${runId}: the others have no id, repeat an id, or were sent since`;
}
