import { CheckResponse, ConnectionCheckService, ProjectDiscoveryService } from '../../application';
import { DEFAULT_PROJECT, projectNameOf } from '../../config';
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
  else printCheck(out, result);
  return result.ok ? 0 : 1;
}

/**
 * Without a connection: each project of the config (its Api-key sees it: `GET /user/projects`; one it does not see
 * fails naming `projects.<name>`), then the connections of each, project by project. Exit 1 when anything failed.
 * `--json`: `{ ok, projects, connections }`.
 */
export async function checkAllCommand(ctx: CliContext, out: CliOutput): Promise<number> {
  const projects = await ctx.app.get(ProjectDiscoveryService).discover();
  const names = [...new Set([DEFAULT_PROJECT, ...Object.keys(ctx.config.projects ?? {})])];
  const ordered = names.flatMap((name) => ctx.config.connections.filter((connection) => projectNameOf(connection) === name));
  const checker = ctx.app.get(ConnectionCheckService);
  const connections: CheckResponse[] = [];
  if (!ctx.json) printProjects(out, projects);
  for (const connection of ordered) {
    const result = await checker.check(connection.id);
    connections.push(result);
    if (!ctx.json) printCheck(out, result, projectNameOf(connection));
  }
  const ok = projects.ok && connections.every((result) => result.ok);
  if (ctx.json) printJson(ctx, out, { ok, projects, connections });
  return ok ? 0 : 1;
}

function printProjects(out: CliOutput, result: Awaited<ReturnType<ProjectDiscoveryService['discover']>>): void {
  for (const entry of result.configured) {
    if (entry.ok) out.line(`project ${entry.name}: ok: ${entry.message}`);
    else out.error(`project ${entry.name}: check failed: ${entry.message}`);
  }
  // one line per service: an agency's key may see a hundred projects (`discover` lists them with their names)
  const unconfigured = new Map<string, string[]>();
  for (const project of result.projects.filter((p) => p.configured_as === null)) {
    unconfigured.set(project.service, [...(unconfigured.get(project.service) ?? []), project.project]);
  }
  for (const [service, numbers] of unconfigured) {
    out.line(`not configured: ${numbers.length === 1 ? 'project' : 'projects'} ${numbers.join(', ')} on ${service}, which the Api-key sees (npm run cli -- discover names them)`);
  }
}

function printCheck(out: CliOutput, result: CheckResponse, project?: string): void {
  const id = result.connection_id;
  const label = project === undefined ? `connection ${id}` : `connection ${id} (project ${project})`;
  for (const entry of result.checks) {
    if (entry.ok) out.line(`${label}: ${entry.name}: ok: ${entry.message}`);
    else out.error(`${label}: ${entry.name}: check failed: ${entry.message}`);
  }
  if (result.project_statuses) {
    const statuses = result.project_statuses.map((s) => `${s.id} (${s.name}, ${s.type})`).join(', ');
    out.line(`${label}: the project's statuses: ${statuses || 'none'}`);
  }
  for (const warning of result.warnings ?? []) out.error(`${label}: warning: ${warning}`);
}
