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
  return followRun(
    ctx,
    out,
    run.connection_id,
    () => ctx.app.get(RunTriggerService).retryRejected(runId, 'cli'),
    (newRunId) => `connection ${run.connection_id}: run ${newRunId} started (retrying the ${run.rejected_count} rejected record(s) of run ${runId})`,
  );
}
