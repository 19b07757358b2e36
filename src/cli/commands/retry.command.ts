import { RunsQueryService, RunTriggerService } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { followRun } from './follow-run';

/**
 * Sends a run's rejected records again (after they were fixed in the source), in a new run followed in the
 * foreground: what POST /api/runs/{id}/rejected/retry starts, through the same service.
 */
export async function retryCommand(ctx: CliContext, out: CliOutput, runId: number): Promise<number> {
  const run = await ctx.app.get(RunsQueryService).get(runId);
  const triggers = ctx.app.get(RunTriggerService);
  // as the engine picks them: unresolved, with an id, one per stream and id (rejected_count counts every row)
  const retried = await triggers.retryCount(runId);
  return followRun(
    ctx,
    out,
    run.connection_id,
    () => triggers.retryRejected(runId, 'cli'),
    (newRunId) => `connection ${run.connection_id}: run ${newRunId} started (${retriedText(retried, run.rejected_count, runId)})`,
  );
}

function retriedText(retried: number, rejected: number, runId: number): string {
  if (retried === rejected) return `retrying the ${rejected} rejected record(s) of run ${runId}`;
  return `retrying ${retried} of the ${rejected} rejected record(s) of run ${runId}: the others have no id, repeat an id, or were sent since`;
}
