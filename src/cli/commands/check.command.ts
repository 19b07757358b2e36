import { ConnectionCheckService } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';

/**
 * Both ends of the connection: the service (Api-key and project) and the source (the connector's own check), a line
 * each naming its side; a failed side on stderr and exit 1. `--json`: as POST …/check.
 */
export async function checkCommand(ctx: CliContext, out: CliOutput, connectionId: string): Promise<number> {
  const result = await ctx.app.get(ConnectionCheckService).check(connectionId);
  if (ctx.json) printJson(ctx, out, result);
  else {
    for (const entry of result.checks) {
      if (entry.ok) out.line(`connection ${connectionId}: ${entry.name}: ok: ${entry.message}`);
      else out.error(`connection ${connectionId}: ${entry.name}: check failed: ${entry.message}`);
    }
    if (result.project_statuses) {
      const statuses = result.project_statuses.map((s) => `${s.id} (${s.name}, ${s.type})`).join(', ');
      out.line(`connection ${connectionId}: the project's statuses: ${statuses || 'none'}`);
    }
    for (const warning of result.warnings ?? []) out.error(`connection ${connectionId}: warning: ${warning}`);
  }
  return result.ok ? 0 : 1;
}
