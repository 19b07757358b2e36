import { ConnectionControlService, RunsQueryService, SecretScrubber } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { runLine } from '../output/run-line.format';

/** The connection's latest runs, newest first. `--json`: as GET /api/runs?connection=…&limit=…. */
export async function runsCommand(ctx: CliContext, out: CliOutput, connectionId: string, limit: number): Promise<number> {
  await ctx.app.get(ConnectionControlService).isPaused(connectionId); // an unknown connection is named, not an empty list
  const list = await ctx.app.get(RunsQueryService).list({ connection: connectionId, limit, offset: 0 });
  if (ctx.json) {
    printJson(ctx, out, list);
    return 0;
  }
  const { runs, total } = list;
  const scrubber = ctx.app.get(SecretScrubber);
  if (runs.length === 0) out.line(`connection ${connectionId}: no runs yet`);
  for (const run of runs) out.line(scrubber.text(runLine(run)));
  if (total > runs.length) out.line(`… ${total - runs.length} older runs (use --limit)`);
  return 0;
}
