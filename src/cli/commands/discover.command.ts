import { ProjectDiscoveryService } from '../../application';
import { DiscoveryService } from '../../discovery/discovery.service';
import { proposalText } from '../../discovery/proposal-yaml';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { discoverLines } from '../output/discover.format';
import { unseenProjectLines, visibleProjectLines } from '../output/projects.format';

/**
 * With a connection: the CRM's pipelines, stages, fields and users, then a mapping ready to paste (`--json`: as
 * GET …/discover). Without: the projects the config's Api-keys see, which are configured and under which name;
 * exit 1 when a configured project is not among them.
 */
export async function discoverCommand(ctx: CliContext, out: CliOutput, connectionId: string | undefined): Promise<number> {
  if (connectionId === undefined) return discoverProjects(ctx, out);
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

async function discoverProjects(ctx: CliContext, out: CliOutput): Promise<number> {
  const result = await ctx.app.get(ProjectDiscoveryService).discover();
  if (ctx.json) printJson(ctx, out, result);
  else {
    for (const line of visibleProjectLines(result)) out.line(line);
    for (const line of unseenProjectLines(result)) out.error(line);
    if (result.projects.some((project) => project.configured_as === null)) {
      out.line('add one: npm run cli -- init --project-name <name> --project <number>');
    }
  }
  return result.ok ? 0 : 1;
}
