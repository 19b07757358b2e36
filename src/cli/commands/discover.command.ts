import { DiscoveryService } from '../../discovery/discovery.service';
import { proposalText } from '../../discovery/proposal-yaml';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { discoverLines } from '../output/discover.format';

/** The CRM's pipelines, stages, fields and users, then a mapping ready to paste. `--json`: as GET …/discover. */
export async function discoverCommand(ctx: CliContext, out: CliOutput, connectionId: string): Promise<number> {
  const result = await ctx.app.get(DiscoveryService).discover(connectionId);
  if (ctx.json) {
    printJson(ctx, out, result);
    return 0;
  }
  for (const line of discoverLines(result)) out.line(line);
  out.line('');
  out.line(`Proposed settings (paste under settings: of connection ${connectionId}):`);
  for (const line of proposalText(result).trimEnd().split('\n')) out.line(`  ${line}`);
  for (const note of result.proposed.notes) out.line(`note: ${note}`);
  return 0;
}
