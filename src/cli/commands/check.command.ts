import { ConnectionCheckService } from '../../admin';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';

/** The connector's own check: reach the source and verify credentials. Exit 1 when it fails. */
export async function checkCommand(ctx: CliContext, out: CliOutput, connectionId: string): Promise<number> {
  const result = await ctx.app.get(ConnectionCheckService).check(connectionId);
  const line = `connection ${connectionId}: ${result.ok ? 'ok' : 'check failed'}: ${result.message}`;
  if (result.ok) out.line(line);
  else out.error(line);
  return result.ok ? 0 : 1;
}
