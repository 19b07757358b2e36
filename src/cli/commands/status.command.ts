import { ConnectionResponse, ConnectionStatusService, RunResponse } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { runTotals } from '../output/run-line.format';

/** Every connection: state, last run, next run. `--json`: as GET /api/connections. */
export async function statusCommand(ctx: CliContext, out: CliOutput): Promise<number> {
  const connections = await ctx.app.get(ConnectionStatusService).list();
  if (ctx.json) {
    printJson(ctx, out, { connections });
    return 0;
  }
  if (connections.length === 0) {
    out.line('no connections configured');
    return 0;
  }
  for (const connection of connections) out.line(connectionLine(connection));
  return 0;
}

function connectionLine(c: ConnectionResponse): string {
  return [
    c.id,
    `(${c.connector})`,
    c.state,
    `last run: ${lastRunText(c.last_run)}`,
    `next run: ${c.next_run_at ?? (c.paused ? 'paused' : c.schedule ? '—' : 'not scheduled')}`,
  ].join('  ');
}

function lastRunText(run: RunResponse | null): string {
  if (!run) return 'never';
  const when = run.finished_at ?? run.started_at;
  return `#${run.id} ${run.status} ${when} (${runTotals(run)})`;
}
