import { ConnectionResponse, ConnectionStatusService, RunResponse } from '../../application';
import type { FlowStatusResponse, ScheduleTicksResponse } from '../../application/answers/connection.response';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { runTotals } from '../output/run-line.format';

/**
 * Every connection: its sync's state, last run and next run, then a line per outbound flow it runs (its own state
 * and last run). `--json`: as GET /api/connections.
 */
export async function statusCommand(ctx: CliContext, out: CliOutput): Promise<number> {
  const { connections, schedules_halted: halt } = await ctx.app.get(ConnectionStatusService).overview();
  if (ctx.json) {
    printJson(ctx, out, { connections, schedules_halted: halt ?? null });
    return 0;
  }
  if (connections.length === 0) {
    out.line('no connections configured');
    return 0;
  }
  // said once, first: no next run below is a promise while nothing fires the schedules
  if (halt) out.line(halt.message);
  const none = halt ? `none (${halt.reason === 'no_daemon' ? 'no daemon is running' : "the cluster's Redis is unreachable"})` : '—';
  for (const connection of connections) {
    out.line(connectionLine(connection, none));
    for (const flow of connection.flows ?? []) out.line(flowLine(connection, flow, none));
  }
  return 0;
}

function connectionLine(c: ConnectionResponse, none: string): string {
  return [
    c.id,
    `(${c.connector})`,
    c.state,
    `last run: ${lastRunText(c.last_run)}`,
    `next run: ${c.next_run_at ?? (c.paused ? 'paused' : c.schedule_halted ? none : c.schedule ? '—' : 'not scheduled')}`,
    ...skippedText(c.ticks),
  ].join('  ');
}

function flowLine(c: ConnectionResponse, f: FlowStatusResponse, none: string): string {
  return [
    `  ${f.title}`,
    f.state,
    `last run: ${lastRunText(f.last_run)}`,
    `next run: ${f.next_run_at ?? (c.paused ? 'paused' : f.schedule_halted ? none : f.schedule ? '—' : 'after each successful sync')}`,
    ...skippedText(f.ticks),
  ].join('  ');
}

/** Ticks that found a run of their flow already waiting: the flow falls behind its schedule. */
function skippedText(ticks: ScheduleTicksResponse | null | undefined): string[] {
  return ticks?.skipped ? [`ticks skipped: ${ticks.skipped} of ${ticks.ticks} (last ${ticks.last_skipped_at})`] : [];
}

function lastRunText(run: RunResponse | null): string {
  if (!run) return 'never';
  const when = run.finished_at ?? run.started_at;
  return `#${run.id} ${run.status} ${when} (${runTotals(run)})`;
}
