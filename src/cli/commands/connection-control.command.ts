import { ConnectionStatusResponse } from '../../application/connections/connection-status.response';
import { ConnectionControlService } from '../../application/connections/connection-control.service';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';

/**
 * pause, resume, reset: what POST /api/connections/{id}/pause, …/resume and DELETE …/cursors do, through the
 * same service. The stored flag is what a running daemon's scheduler reads, so it follows within its next tick.
 */
export async function pauseCommand(ctx: CliContext, out: CliOutput, connectionId: string): Promise<number> {
  const connection = await ctx.app.get(ConnectionControlService).pause(connectionId);
  if (ctx.json) printJson(ctx, out, connection);
  else out.line(`connection ${connectionId}: paused; scheduled runs are skipped until \`resume ${connectionId}\``);
  return 0;
}

export async function resumeCommand(ctx: CliContext, out: CliOutput, connectionId: string): Promise<number> {
  const connection = await ctx.app.get(ConnectionControlService).resume(connectionId);
  if (ctx.json) printJson(ctx, out, connection);
  else out.line(`connection ${connectionId}: resumed; next run: ${nextRun(connection)}`);
  return 0;
}

export async function resetCommand(ctx: CliContext, out: CliOutput, connectionId: string): Promise<number> {
  const result = await ctx.app.get(ConnectionControlService).clearCursors(connectionId);
  if (ctx.json) printJson(ctx, out, result);
  else out.line(`connection ${connectionId}: ${result.cleared} cursor(s) cleared; the next run reads every stream from the beginning`);
  return 0;
}

function nextRun(connection: ConnectionStatusResponse): string {
  if (connection.next_run_at) return connection.next_run_at;
  // nothing fires the schedule (no daemon is running): no next run is promised
  if (connection.schedule_halted) return `none (${/^no daemon/.test(connection.schedule_halted) ? 'no daemon is running' : "the cluster's Redis is unreachable"})`;
  return connection.schedule ? '—' : 'not scheduled';
}
