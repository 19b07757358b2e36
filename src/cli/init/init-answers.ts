import { CONNECTION_ID } from '../../config';
import { cronProblem } from '../../config/cron-expression';
import { projectNumberProblem } from '../../config/project-number';
import { ask } from './ask';
import { askProject, ProjectAnswer, projectNameProblem, ProjectChoices, ServiceAnswer } from './project-question';

export { ask, InitCancelled } from './ask';
export type { ProjectAnswer } from './project-question';

/** `init`'s flags (all optional on a terminal, where the missing ones are asked). */
export interface InitFlags {
  preset?: string;
  baseUrl?: string;
  tokenEnv?: string;
  /** the token itself; default: the value of --token-env's variable in init's environment (or <data_dir>/.env) */
  token?: string;
  trackerUrl?: string;
  trackerKeyEnv?: string;
  project?: string;
  /** with --project: the project goes under projects: by this name (the tracker flags become its base_url, api_key) */
  projectName?: string;
  connection?: string;
  schedule?: string;
  acceptProposed?: boolean;
  /** run a first sync after the check (without a terminal; on one it is offered) */
  sync?: boolean;
}

/** What init writes: the connection and, for the real service, the tracker section or a project block. */
export interface InitAnswers {
  preset: string;
  baseUrl: string;
  tokenEnv: string;
  token: string;
  /** null: the embedded sandbox */
  tracker: { url: string; keyEnv: string; key: string; project: string } | null;
  /** the project the connection feeds, under projects: (null: the tracker: section's) */
  project: ProjectAnswer | null;
  connection: string;
  schedule: string;
}

export const DEFAULT_SCHEDULE = '*/15 * * * *';

/** A missing or wrong flag without a terminal: the message names it. */
export class InitUsageError extends Error {}

const TOKEN_ENV: Record<string, string> = { amocrm: 'AMO_TOKEN', bitrix24: 'B24_WEBHOOK_CODE', pipedrive: 'PIPEDRIVE_TOKEN', hubspot: 'HUBSPOT_TOKEN' };
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Without a terminal: every answer from the flags; the first one missing is named. `presets`: the generic CRM's. */
export function answersFromFlags(flags: InitFlags, secrets: NodeJS.ProcessEnv, presets: readonly string[]): InitAnswers {
  checkProjectFlag(flags);
  const need = (value: string | undefined, flag: string): string => {
    if (value === undefined || value === '') throw new InitUsageError(`init: ${flag} is required without a terminal (see npm run cli -- init --help)`);
    return value;
  };
  const preset = need(flags.preset, '--preset <name>');
  const problem = presetProblem(preset, presets) ?? urlProblem(need(flags.baseUrl, '--base-url <url>'));
  if (problem) throw new InitUsageError(`init: ${problem}`);
  const tokenEnv = need(flags.tokenEnv, '--token-env <VARIABLE>');
  if (!ENV_NAME.test(tokenEnv)) throw new InitUsageError(`init: --token-env "${tokenEnv}" is not a variable name`);
  const token = flags.token ?? secrets[tokenEnv];
  if (!token) throw new InitUsageError(`init: the CRM token: set ${tokenEnv} in the environment (or pass --token)`);
  const project = flags.projectName === undefined ? null : projectFromFlags(flags, secrets);
  let tracker: InitAnswers['tracker'] = null;
  if (flags.trackerUrl && !project) {
    const service = serviceFromFlags(flags, secrets);
    tracker = { ...service, project: need(flags.project, '--project <number> (with --tracker-url)') };
  }
  const connection = need(flags.connection, '--connection <id>');
  if (!CONNECTION_ID.test(connection)) throw new InitUsageError(`init: --connection "${connection}" must start with a letter or digit and hold only letters, digits, "-" and "_"`);
  const schedule = flags.schedule ?? DEFAULT_SCHEDULE;
  const cron = cronProblem(schedule);
  if (cron) throw new InitUsageError(`init: --schedule "${schedule}" is not a cron expression (${cron})`);
  if (!flags.acceptProposed) throw new InitUsageError('init: --accept-proposed is required without a terminal (the proposed mapping is written as discover shows it)');
  return { preset, baseUrl: flags.baseUrl!, tokenEnv, token, tracker, project, connection, schedule };
}

/**
 * `--project-name acme --project 12345` (with or without a connection): the block of projects: to add; with
 * `--tracker-url` and `--tracker-key-env` the block gets its own base_url and api_key (default: tracker:'s).
 */
export function projectFromFlags(flags: InitFlags, secrets: NodeJS.ProcessEnv): ProjectAnswer {
  const name = flags.projectName ?? '';
  const problem = projectNameProblem(name);
  if (problem) throw new InitUsageError(`init: --project-name "${name}": ${problem}`);
  const number = flags.project;
  if (!number) throw new InitUsageError('init: --project <number> is required with --project-name');
  checkProjectFlag(flags);
  return { name, number, service: flags.trackerUrl ? serviceFromFlags(flags, secrets) : null };
}

/** `--project 02` would be written as project "02", which the config refuses: said now, with the number meant. */
function checkProjectFlag(flags: InitFlags): void {
  const problem = flags.project === undefined ? undefined : projectNumberProblem(flags.project);
  if (problem) throw new InitUsageError(`init: --project "${flags.project}" ${problem}`);
}

function serviceFromFlags(flags: InitFlags, secrets: NodeJS.ProcessEnv): { url: string; keyEnv: string; key: string } {
  const problem = urlProblem(flags.trackerUrl!);
  if (problem) throw new InitUsageError(`init: --tracker-url: ${problem}`);
  if (!flags.trackerKeyEnv) throw new InitUsageError('init: --tracker-key-env <VARIABLE> (with --tracker-url) is required without a terminal (see npm run cli -- init --help)');
  const key = secrets[flags.trackerKeyEnv];
  if (!key) throw new InitUsageError(`init: the service's key: set ${flags.trackerKeyEnv} in the environment`);
  return { url: flags.trackerUrl!, keyEnv: flags.trackerKeyEnv, key };
}


/** On a terminal: one question at a time; a flag given answers its question. */
export async function askAnswers(
  flags: InitFlags, secrets: NodeJS.ProcessEnv, takenIds: (id: string) => boolean, presets: readonly string[], projects: ProjectChoices,
): Promise<InitAnswers> {
  checkProjectFlag(flags);
  const preset = flags.preset ?? (await ask<string>({
    type: 'select', name: 'value', message: 'Which CRM?', choices: presets.map((name) => ({ title: name, value: name })),
  }));
  const baseUrl = flags.baseUrl ?? (await ask<string>({
    type: 'text', name: 'value', message: `The CRM's address (${hint(preset)})`, validate: (v: string) => urlProblem(v) ?? true,
  }));
  const tokenEnv = flags.tokenEnv ?? (await ask<string>({
    type: 'text', name: 'value', message: 'Name of the variable that keeps the CRM token', initial: TOKEN_ENV[preset] ?? 'CRM_TOKEN',
    validate: (v: string) => (ENV_NAME.test(v) ? true : 'letters, digits and _ only'),
  }));
  const token = flags.token ?? secrets[tokenEnv] ?? (await ask<string>({
    type: 'password', name: 'value', message: `The CRM token (stored in <data_dir>/.env as ${tokenEnv}, never in the YAML)`, validate: (v: string) => (v ? true : 'required'),
  }));
  const target = flags.trackerUrl ? 'service' : await ask<string>({
    type: 'select', name: 'value', message: 'Where do the deals go?',
    choices: [{ title: 'the embedded sandbox (try it offline first)', value: 'sandbox' }, { title: 'the service (its API key and project)', value: 'service' }],
  });
  let service: ServiceAnswer | null = null;
  if (target === 'service') {
    const url = flags.trackerUrl ?? (await ask<string>({ type: 'text', name: 'value', message: "The service's API URL", validate: (v: string) => urlProblem(v) ?? true }));
    const keyEnv = flags.trackerKeyEnv ?? 'TRACKER_API_KEY';
    const key = secrets[keyEnv] ?? (await ask<string>({ type: 'password', name: 'value', message: `The service's API key (stored in <data_dir>/.env as ${keyEnv})`, validate: (v: string) => (v ? true : 'required') }));
    service = { url, keyEnv, key };
  }
  const { number, project } = await askProject(flags, service, projects);
  const tracker = service && !project ? { ...service, project: number } : null;
  const connection = flags.connection ?? (await ask<string>({
    type: 'text', name: 'value', message: 'A name for this connection', initial: preset,
    validate: (v: string) => (!CONNECTION_ID.test(v) ? 'letters, digits, "-" and "_"' : takenIds(v) ? 'the config has a connection of that name' : true),
  }));
  const schedule = flags.schedule ?? (await ask<string>({
    type: 'text', name: 'value', message: 'How often to sync (cron)', initial: DEFAULT_SCHEDULE, validate: (v: string) => cronProblem(v) ?? true,
  }));
  return { preset, baseUrl, tokenEnv, token, tracker, project, connection, schedule };
}

function presetProblem(preset: string, presets: readonly string[]): string | undefined {
  return presets.includes(preset) ? undefined : `--preset "${preset}" is not a preset (${presets.join(', ')})`;
}

function urlProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : `"${value}" is not an http(s) address`;
  } catch {
    return `"${value}" is not an address (https://...)`;
  }
}

function hint(preset: string): string {
  const hints: Record<string, string> = {
    amocrm: 'https://<account>.amocrm.ru',
    bitrix24: 'https://<portal>.bitrix24.ru/rest/<user id>',
    pipedrive: 'https://<company>.pipedrive.com/api',
    hubspot: 'https://api.hubapi.com',
  };
  return hints[preset] ?? 'https://...';
}
