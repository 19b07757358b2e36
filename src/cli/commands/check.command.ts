import { ConnectionCheckService } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';

/** The connector's own check: reach the source and verify credentials. Exit 1 when it fails. `--json`: as POST …/check. */
export async function checkCommand(ctx: CliContext, out: CliOutput, connectionId: string): Promise<number> {
  const result = await ctx.app.get(ConnectionCheckService).check(connectionId);
  if (ctx.json) printJson(ctx, out, result);
  else if (result.ok) out.line(`connection ${connectionId}: ok: ${result.message}`);
  else out.error(`connection ${connectionId}: check failed: ${result.message}`);
  return result.ok ? 0 : 1;
}
