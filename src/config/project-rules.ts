/** The `projects:` section's rules: each block's keys, the names connections give, one number per service. */
import { validateSync } from 'class-validator';
import { ProjectConfig, PROJECT_NAME, TrackerSyncConfig } from './config.schema';
import { isMapping } from './config-validators';
import { canonicalProjectNumber, PROJECT_NUMBER } from './project-number';
import { DEFAULT_PROJECT } from './project-targets';
import { describeValidationErrors } from './validation-problems';

export function projectProblems(config: TrackerSyncConfig): string[] {
  const projects = isMapping(config.projects) ? config.projects : {};
  const trackerKey = isMapping(config.tracker) ? config.tracker.api_key : undefined;
  return [
    ...blockProblems(projects, trackerKey), ...unknownProjects(config, projects), ...sharedNumbers(config, projects),
    ...unhostedOnSandbox(config, projects),
  ];
}

function blockProblems(projects: Record<string, unknown>, trackerKey: unknown): string[] {
  return Object.entries(projects).flatMap(([name, block]) => {
    const path = `projects.${name}`;
    if (name === DEFAULT_PROJECT) return [`${path}: "${DEFAULT_PROJECT}" is the name of the tracker: section's project; choose another name`];
    if (!PROJECT_NAME.test(name)) return [`${path}: a project's name has only letters, digits, "-" and "_"`];
    if (!(block instanceof ProjectConfig)) return [`${path}: must be a mapping (project:, api_key:, base_url:, rate_limit:)`];
    const errors = validateSync(block, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
    const keyMissing = block.base_url && !block.api_key && !trackerKey
      ? [`${path}.api_key: is required when the project's base_url is set (or set tracker.api_key)`] : [];
    return [...describeValidationErrors(errors, { parent: path }), ...keyMissing];
  });
}

function unknownProjects(config: TrackerSyncConfig, projects: Record<string, unknown>): string[] {
  if (!Array.isArray(config.connections)) return [];
  const known = Object.keys(projects);
  return config.connections.flatMap((connection, index) => {
    if (!isMapping(connection) || typeof connection.project !== 'string' || !PROJECT_NAME.test(connection.project)) return [];
    if (connection.project === DEFAULT_PROJECT || known.includes(connection.project)) return [];
    const choices = known.length ? `one of ${known.map((name) => JSON.stringify(name)).join(', ')}` : 'none is configured';
    return [`connections[${index}].project: "${connection.project}" is not a project under projects: (${choices})`];
  });
}

/**
 * Two names for one project would split its budget in two, double its runs' share of the service's limits and mix
 * two clients' data in one project. Compared as numbers: "02" is project 2 to the service (and refused as a spelling
 * too, by the schema), so it is "already" whichever name has "2".
 */
function sharedNumbers(config: TrackerSyncConfig, projects: Record<string, unknown>): string[] {
  const tracker: Record<string, unknown> = isMapping(config.tracker) ? config.tracker : {};
  const seen = new Map<string, string>();
  const numberOf = (value: string) => canonicalProjectNumber(value) ?? value;
  if (typeof tracker.project === 'string') seen.set(`${numberOf(tracker.project)}@${serviceOf(tracker.base_url)}`, 'tracker.project');
  // on the embedded sandbox the tracker: project is the sandbox's own, project 1, whatever tracker.project says
  if (!tracker.base_url) seen.set(`${EMBEDDED_SANDBOX_PROJECT}@${serviceOf(undefined)}`, "the tracker: project (the embedded sandbox's own)");
  const problems: string[] = [];
  for (const [name, block] of Object.entries(projects)) {
    if (!(block instanceof ProjectConfig) || typeof block.project !== 'string') continue;
    const key = `${numberOf(block.project)}@${serviceOf(block.base_url ?? tracker.base_url)}`;
    const first = seen.get(key);
    if (first) problems.push(`projects.${name}.project: "${block.project}" on ${serviceOf(block.base_url ?? tracker.base_url)} is already ${first}`);
    else seen.set(key, `projects.${name}`);
  }
  return problems;
}

/** The project the embedded sandbox makes for its key (src/bootstrap.ts targets it). */
const EMBEDDED_SANDBOX_PROJECT = '1';

/**
 * A block without base_url (none in tracker: either) targets the embedded sandbox's project of its number: the
 * sandbox hosts 1..sandbox.projects, and a number past them would fail each run with the service's access_denied.
 */
function unhostedOnSandbox(config: TrackerSyncConfig, projects: Record<string, unknown>): string[] {
  const tracker: Record<string, unknown> = isMapping(config.tracker) ? config.tracker : {};
  const hosted = isMapping(config.sandbox) ? config.sandbox.projects : undefined;
  if (tracker.base_url || typeof hosted !== 'number' || !Number.isInteger(hosted)) return [];
  return Object.entries(projects).flatMap(([name, block]) => {
    if (!(block instanceof ProjectConfig) || block.base_url || typeof block.project !== 'string' || !PROJECT_NUMBER.test(block.project)) return [];
    const number = Number(block.project);
    if (number >= 1 && number <= hosted) return [];
    return [`projects.${name}.project: "${block.project}" is not a project of the embedded sandbox, which hosts projects 1..${hosted} `
      + `(sandbox.projects: ${hosted}; raise it, or set projects.${name}.base_url for the service)`];
  });
}

function serviceOf(baseUrl: unknown): string {
  return typeof baseUrl === 'string' && baseUrl ? baseUrl.replace(/\/+$/, '') : 'the embedded sandbox';
}
