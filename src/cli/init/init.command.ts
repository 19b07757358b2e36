import { mkdirSync, rmSync } from 'fs';
import { basename, dirname, join } from 'path';
import { parseDocument } from 'yaml';
import { ConfigError, resolveConfigPath, TrackerSyncConfig, validateConfig } from '../../config';
import { dataDirOf, withDotenv, writeDotenv } from '../../config/dotenv-file';
import { loadConnectors } from '../../connectors/plugin-loader';
import { DiscoverResult, DiscoveryService } from '../../discovery/discovery.service';
import { proposalText, proposedSettingsNodes } from '../../discovery/proposal-yaml';
import { createCliApp } from '../cli-app';
import type { CliContext } from '../cli-context';
import { checkCommand } from '../commands/check.command';
import { askDaemonToReload } from '../daemon-reload';
import { syncCommand } from '../commands/sync.command';
import type { CliOutput } from '../output/cli-output';
import { discoverLines } from '../output/discover.format';
import { ConfigDocument, UneditableConfigError } from './config-writer';
import { answersFromFlags, ask, askAnswers, InitAnswers, InitCancelled, InitFlags, InitUsageError, projectFromFlags } from './init-answers';
import type { ProjectAnswer, ProjectChoices } from './project-question';
import { ProjectDiscoveryService, SANDBOX_SERVICE } from '../../application';
import { visibleProjectLines } from '../output/projects.format';

/**
 * `init`: a generic-crm connection from nothing. The answers (questions on a terminal, else flags), then the
 * CRM's discovery through a copy of the config with the new connection, the proposed mapping (accepted, or a
 * stage's group changed), the connection written into the config file (comments and order kept; the secrets in
 * <data_dir>/.env, 0600, as ${NAME} references), a running daemon asked to reload it, `check`, and a first sync offered.
 */
export async function initCommand(argv: string[], env: NodeJS.ProcessEnv, out: CliOutput, flags: InitFlags, interactive: boolean): Promise<number> {
  try {
    return await init(argv, env, out, flags, interactive);
  } catch (error) {
    if (error instanceof InitUsageError || error instanceof InitCancelled || error instanceof ConfigError || error instanceof UneditableConfigError) {
      out.error(error.message);
      return error instanceof InitCancelled ? 130 : 1;
    }
    throw error;
  }
}

async function init(argv: string[], env: NodeJS.ProcessEnv, out: CliOutput, flags: InitFlags, interactive: boolean): Promise<number> {
  const path = resolveConfigPath(argv, env);
  const original = ConfigDocument.read(path);
  // the file as it is must load (else init would build on a broken config); its data_dir holds .env
  const raw = original.doc.toJS() as unknown;
  const dataDir = dataDirOf(raw, env);
  const current = withDotenv(env, dataDir);
  const loaded = validateConfig(raw ?? {}, { env: current, file: path });
  const registry = await loadConnectors(loaded.connector_paths, { log: () => undefined, warn: () => undefined });

  if (flags.projectName !== undefined && flags.preset === undefined && !interactive) {
    return initProject(path, original, projectFromFlags(flags, current), { env, current, dataDir, registry, argv }, out);
  }
  const presets = registry.get('generic-crm')?.presets ?? [];
  const answers = interactive
    ? await askAnswers(flags, current, (id) => original.hasConnection(id), presets, projectChoices(path, original, loaded, current))
    : answersFromFlags(flags, current, presets);
  if (original.hasConnection(answers.connection)) throw new InitUsageError(`init: ${path} already has a connection "${answers.connection}"`);
  const secrets: Record<string, string> = { [answers.tokenEnv]: answers.token };
  if (answers.tracker) secrets[answers.tracker.keyEnv] = answers.tracker.key;
  if (answers.project?.service) secrets[answers.project.service.keyEnv] = answers.project.service.key;
  const withSecrets = { ...current, ...secrets };

  out.line(`reading the CRM's pipelines, stages, fields and users (${answers.baseUrl})...`);
  const result = await discover(path, withConnection(original, answers), answers, withSecrets, argv, out);
  for (const line of discoverLines(result)) out.line(line);
  out.line('');
  out.line('Proposed mapping:');
  for (const line of proposalText(result).trimEnd().split('\n')) out.line(`  ${line}`);
  for (const note of result.proposed.notes) out.line(`note: ${note}`);
  const statusMap = interactive ? await reviewMapping(result, out) : result.proposed.status_map;

  const final = withConnection(original, answers, (doc) => proposedSettingsNodes(doc, result, statusMap));
  // validated as the daemon loads it before anything is written: a config that would not load is never written
  validateConfig(parseDocument(final.text()).toJS(), { env: withSecrets, settingsValidator: registry.validateSettings, file: path });
  const dotenv = writeDotenv(dataDir, secrets);
  final.save(withSecrets, registry.validateSettings);
  const feeds = answers.project ? ` (project ${answers.project.name})` : '';
  out.line(`wrote connection ${answers.connection}${feeds} into ${path}; its secrets ${Object.keys(secrets).join(', ')} into ${dotenv} (mode 0600)`);

  const configArgv = ['node', 'cli.js', '--config', path];
  const checked = await withApp(configArgv, env, async (ctx) => {
    // a daemon already running this config takes the new connection now, or the user is told to restart it
    await askDaemonToReload(ctx, path, env, out);
    return checkCommand(ctx, out, answers.connection);
  });
  if (checked !== 0) {
    out.error(`fix the connection in ${path}, then: npm run cli -- check ${answers.connection}`);
    return checked;
  }
  const sync = interactive ? await ask<boolean>({ type: 'confirm', name: 'value', message: 'Run a first sync now?', initial: true }) : Boolean(flags.sync);
  if (!sync) {
    out.line(`next: npm run cli -- sync ${answers.connection}   (or npm start: it syncs on the schedule ${answers.schedule})`);
    return 0;
  }
  return withApp(configArgv, env, (ctx) => syncCommand(ctx, out, answers.connection, {}));
}

/** The config with the new connection (and the tracker section for the real service, or its project's block). */
function withConnection(original: ConfigDocument, answers: InitAnswers, mapping?: (doc: ConfigDocument['doc']) => ReturnType<typeof proposedSettingsNodes>): ConfigDocument {
  const config = original.clone();
  if (answers.tracker) {
    config.setTracker({ base_url: answers.tracker.url, api_key: `\${${answers.tracker.keyEnv}}`, project: answers.tracker.project });
  }
  if (answers.project) withProject(config, answers.project);
  const settings = { preset: answers.preset, base_url: answers.baseUrl, token: `\${${answers.tokenEnv}}` };
  const connection = { id: answers.connection, connector: 'generic-crm', project: answers.project?.name, schedule: answers.schedule, settings };
  config.addConnection(connection, mapping ? mapping(config.doc) : []);
  return config;
}

/** `projects.<name>` added unless the file has it for that number already; a block of that name for another number is refused. */
function withProject(config: ConfigDocument, project: ProjectAnswer): void {
  const written = config.projectNumber(project.name);
  if (written === project.number) return;
  if (written !== undefined) {
    throw new InitUsageError(`init: ${config.path} has projects.${project.name} for project ${written || '(none)'}: choose another --project-name`);
  }
  const values: Record<string, string> = { project: project.number };
  if (project.service) Object.assign(values, { base_url: project.service.url, api_key: `\${${project.service.keyEnv}}` });
  config.addProject(project.name, values);
}

interface InitEnvironment {
  env: NodeJS.ProcessEnv;
  /** env with <data_dir>/.env */
  current: NodeJS.ProcessEnv;
  dataDir: string;
  registry: Awaited<ReturnType<typeof loadConnectors>>;
  argv: string[];
}

/**
 * `init --project-name acme --project 12345` alone: the block of projects: (kept when the file has it), written only
 * when its Api-key sees the project; the key's projects are listed, each with its name in the config.
 */
async function initProject(path: string, original: ConfigDocument, project: ProjectAnswer, setup: InitEnvironment, out: CliOutput): Promise<number> {
  const secrets: Record<string, string> = project.service ? { [project.service.keyEnv]: project.service.key } : {};
  const withSecrets = { ...setup.current, ...secrets };
  const final = original.clone();
  withProject(final, project);
  validateConfig(parseDocument(final.text()).toJS(), { env: withSecrets, settingsValidator: setup.registry.validateSettings, file: path });
  const seen = await throughCopy(path, final, withSecrets, setup.argv, (ctx) => ctx.app.get(ProjectDiscoveryService).discover());
  for (const line of visibleProjectLines(seen)) out.line(line);
  const verdict = seen.configured.find((entry) => entry.name === project.name);
  if (!verdict?.ok) {
    out.error(`init: ${verdict?.message ?? `projects.${project.name}: not checked`}; nothing was written`);
    return 1;
  }
  if (final.text() === original.text()) {
    out.line(`${path} has projects.${project.name} (project ${project.number}) already: nothing to write`);
    return 0;
  }
  if (Object.keys(secrets).length > 0) writeDotenv(setup.dataDir, secrets);
  final.save(withSecrets, setup.registry.validateSettings);
  out.line(`wrote projects.${project.name} (project ${project.number}) into ${path}`);
  await withApp(['node', 'cli.js', '--config', path], setup.env, (ctx) => askDaemonToReload(ctx, path, setup.env, out));
  out.line(`next: a connection feeding it: npm run cli -- init --project-name ${project.name} --project ${project.number} --preset ... (or project: ${project.name} on a connection)`);
  return 0;
}

/** On a terminal: the projects the key sees, from a boot of the config as it is (null when that fails). */
function projectChoices(path: string, original: ConfigDocument, loaded: TrackerSyncConfig, env: NodeJS.ProcessEnv): ProjectChoices {
  return {
    trackerTaken: Boolean(loaded.tracker.base_url),
    takenName: (name) => original.projectNumber(name) !== undefined,
    list: async (service) => {
      try {
        return await withApp(['node', 'cli.js', '--config', path], env, async (ctx) => {
          const projects = ctx.app.get(ProjectDiscoveryService);
          if (service) return projects.visibleTo({ baseUrl: service.url, apiKey: service.key });
          return (await projects.discover()).projects.filter((project) => project.service === SANDBOX_SERVICE);
        });
      } catch {
        return null; // asked by number instead
      }
    },
  };
}

/**
 * Discovery through a copy of the config holding the new connection; the copy is removed whatever happens. The
 * project the connection feeds (under projects:) must be one its Api-key sees: the key's projects are listed first.
 */
async function discover(
  path: string, candidate: ConfigDocument, answers: InitAnswers, env: NodeJS.ProcessEnv, argv: string[], out: CliOutput,
): Promise<DiscoverResult> {
  return throughCopy(path, candidate, env, argv, async (ctx) => {
    if (answers.project) {
      const seen = await ctx.app.get(ProjectDiscoveryService).discover();
      for (const line of visibleProjectLines(seen)) out.line(line);
      const verdict = seen.configured.find((entry) => entry.name === answers.project!.name);
      if (verdict && !verdict.ok) throw new InitUsageError(`init: ${verdict.message}; nothing was written`);
    }
    return ctx.app.get(DiscoveryService).discover(answers.connection);
  });
}

/** A command on a copy of the config (init's candidate, before the real file is touched); the copy is removed whatever happens. */
async function throughCopy<T>(path: string, candidate: ConfigDocument, env: NodeJS.ProcessEnv, argv: string[], command: (ctx: CliContext) => Promise<T>): Promise<T> {
  mkdirSync(dirname(path), { recursive: true });
  const copy = join(dirname(path), `.${basename(path)}.init-${process.pid}.yaml`);
  candidate.saveCopy(copy);
  try {
    return await withApp([...argv.slice(0, 2), '--config', copy], env, command);
  } finally {
    rmSync(copy, { force: true });
  }
}

async function withApp<T>(argv: string[], env: NodeJS.ProcessEnv, command: (ctx: CliContext) => Promise<T>): Promise<T> {
  const app = await createCliApp(argv, env);
  try {
    return await command(app.context);
  } finally {
    await app.close();
  }
}

const GROUPS = ['paid', 'canceled', 'progress'] as const;

/** Accept the proposal, or move stages to another group one at a time. */
async function reviewMapping(result: DiscoverResult, out: CliOutput): Promise<Record<string, string>> {
  const map = { ...result.proposed.status_map };
  const statuses = result.project_statuses;
  const idOf = { paid: statuses.paid, canceled: statuses.canceled, progress: statuses.progress };
  const groupName = { paid: 'paid', canceled: 'canceled', progress: 'in work' };
  const groupOf = (status: string) => GROUPS.find((g) => idOf[g] === status) ?? 'progress';
  const labels = new Map<string, string>();
  for (const pipeline of result.pipelines) for (const stage of pipeline.stages) if (!labels.has(stage.id)) labels.set(stage.id, `${pipeline.name}: ${stage.name}`);
  for (const status of result.deal_statuses) if (!labels.has(status.key)) labels.set(status.key, status.name);
  for (;;) {
    const choice = await ask<string>({
      type: 'select', name: 'value', message: 'Use this mapping?',
      choices: [{ title: 'Accept it', value: 'accept' }, { title: "Change a stage's group", value: 'change' }],
    });
    if (choice === 'accept') return map;
    const stage = await ask<string>({
      type: 'select', name: 'value', message: 'Which stage?',
      choices: Object.keys(map).map((key) => ({ title: `${labels.get(key) ?? key} (${groupName[groupOf(map[key])]})`, value: key })),
    });
    const group = await ask<(typeof GROUPS)[number]>({
      type: 'select', name: 'value', message: `Group of "${labels.get(stage) ?? stage}"`,
      choices: GROUPS.map((g) => ({ title: `${groupName[g]} (status "${idOf[g]}")`, value: g })),
      initial: GROUPS.indexOf(groupOf(map[stage])),
    });
    map[stage] = idOf[group];
    out.line(`  ${labels.get(stage) ?? stage} → ${groupName[group]}`);
  }
}
