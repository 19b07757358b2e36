import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ConfigReloadChannel, OthersAsked } from '../../cluster/config-reload-channel';
import { ConfigError, ConfigSource, loadConfig, projectNameOf, TrackerSyncConfig } from '../../config';
import type { ShadowedVariables } from '../../config/dotenv-file';
import { ConnectorRegistry } from '../../connectors/connector-registry';
import { startupWarnings } from '../../connectors/startup-warnings';
import { ConnectionsService } from '../../engine';
import { ProjectClients } from '../../projects/project-clients';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';
import { SCHEDULE_CONTROL, ScheduleControl } from '../connections/schedule-control';

/**
 * What a reload changed: connection ids, and the sections that differ but only take effect at a restart; in
 * cluster mode, how many other daemons were asked to reload their own files.
 */
export interface ConfigReloadAnswer extends Partial<OthersAsked> {
  file: string;
  added: string[];
  changed: string[];
  removed: string[];
  /** changed connections that feed another project now (`from`, `to`: the projects' names in the config) */
  moved: ConnectionMove[];
  restart_required: string[];
}

/** A connection id that left one project for another: its history stays the first one's (src/store/project-rows.ts). */
export interface ConnectionMove {
  connection: string;
  from: string;
  to: string;
}

/** The file on disk does not load: nothing was replaced. */
export class ConfigReloadRefusedError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`the configuration ${file} was not reloaded (${problems.length === 1 ? '1 problem' : `${problems.length} problems`}); the running one stays`);
    this.name = 'ConfigReloadRefusedError';
  }
}

/**
 * Reads the config file again (SIGHUP, POST /api/config/reload) and, when it loads, puts its connections in
 * place of the running ones: rows written, cron jobs of the added, changed and removed connections rebuilt.
 * Everything reads `config.connections` when it starts something, and a run keeps the connection object it
 * started with, so runs in flight finish under the old settings. The projects (`projects:`) are taken too: an
 * agency's new client needs no restart; a project changed or removed gets a new client (and budget) at its next
 * use, runs in flight keep theirs. So are the scoped admin tokens (`admin.tokens`): the admin API reads them at
 * each request, so a token taken away stops working at once. The other sections (server, store, tracker, the
 * rest of admin, ...) are wired at start: a change there is reported as needing a restart and the running values
 * stay. In cluster mode a reload asked here is then asked of every other daemon (ConfigReloadChannel), each
 * reading its own file: a token taken away must stop working on every daemon, not on the one asked alone.
 */
@Injectable()
export class ConfigReloadService {
  private readonly logger = new Logger('Config');
  /** one reload at a time: two SIGHUPs in a row apply in order */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly registry: ConnectorRegistry,
    private readonly connections: ConnectionsService,
    @Inject(SCHEDULE_CONTROL) private readonly scheduler: ScheduleControl,
    private readonly scrubber: SecretScrubber,
    @Optional() @Inject(ConfigSource) private readonly source: ConfigSource | null,
    @Optional() @Inject(ProjectClients) private readonly clients: ProjectClients | null,
    @Optional() @Inject(ConfigReloadChannel) private readonly cluster: ConfigReloadChannel | null = null,
  ) {}

  /**
   * Asked of this daemon (SIGHUP, the admin API): its file, then, in cluster mode, every other daemon's. A file
   * that does not load here asks no other daemon.
   * @throws ConfigReloadRefusedError with every problem of the file; the running config is then untouched.
   */
  async reload(): Promise<ConfigReloadAnswer> {
    const answer = await this.queued(null);
    return this.cluster ? { ...answer, ...(await this.cluster.askOthers()) } : answer;
  }

  /** The daemon, once started: in cluster mode it takes the reloads asked of the other daemons. */
  followCluster(): void {
    this.cluster?.listen((why) => {
      this.logger.log(`reading the config again: ${why}`);
      // a refused file is logged by apply with its problems; this daemon's running config stays
      this.queued(why).catch((error: unknown) => {
        if (!(error instanceof ConfigReloadRefusedError)) this.logger.error(`the config was not reloaded: ${(error as Error).message}`);
      });
    });
  }

  private queued(askedBy: string | null): Promise<ConfigReloadAnswer> {
    const next = this.queue.then(() => this.apply(askedBy));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async apply(askedBy: string | null): Promise<ConfigReloadAnswer> {
    if (!this.source) throw new Error('this process was not started from a config file: there is nothing to reload');
    const file = this.source.path;
    let next: TrackerSyncConfig;
    try {
      const source = this.source;
      // a token rotated into <data_dir>/.env that the environment hides is not the one used: said, never silently
      const onShadowed = (shadowed: ShadowedVariables) => source.shadowWarnings(shadowed).forEach((warning) => this.logger.warn(warning));
      next = loadConfig({ argv: source.argv, env: source.env, settingsValidator: this.registry.validateSettings, onShadowed });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const refused = new ConfigReloadRefusedError(file, error.problems);
      this.logger.error(this.scrubber.text([refused.message, ...error.problems.map((p) => `  ${p}`)].join('\n')));
      throw refused;
    }
    const answer = { file, ...connectionChanges(this.config, next), moved: connectionMoves(this.config, next), restart_required: sectionsChanged(this.config, next) };
    const tokens = tokenChanges(this.config, next);
    const projects = projectChanges(this.config, next);
    // projects before connections: a connection added for a new project finds it
    this.config.projects = next.projects;
    this.clients?.retire([...projects.changed, ...projects.removed]);
    this.config.connections.splice(0, this.config.connections.length, ...next.connections);
    this.config.admin.tokens = next.admin.tokens;
    this.scrubber.learn(next);
    await this.connections.syncFromConfig();
    await this.scheduler.rebuild([...answer.added, ...answer.changed, ...answer.removed]);
    this.logger.log(reloadLine(answer, namedChanges(projects), tokens, askedBy));
    // what the connectors warn about at start, for the connections that are new or changed
    const touched = new Set([...answer.added, ...answer.changed]);
    const fresh = { ...next, connections: next.connections.filter((c) => touched.has(c.id)) } as TrackerSyncConfig;
    for (const warning of startupWarnings(fresh, this.registry)) this.logger.warn(this.scrubber.text(warning));
    return answer;
  }
}

interface KeyedChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

/** The entries of a list added, changed (any value) and removed, by their key: connections by id, tokens by name. */
function changesByKey<T>(before: readonly T[], after: readonly T[], keyOf: (entry: T) => string): KeyedChanges {
  const old = new Map(before.map((entry) => [keyOf(entry), JSON.stringify(entry)]));
  const now = new Set(after.map(keyOf));
  return {
    added: after.filter((entry) => !old.has(keyOf(entry))).map(keyOf),
    changed: after.filter((entry) => old.has(keyOf(entry)) && old.get(keyOf(entry)) !== JSON.stringify(entry)).map(keyOf),
    removed: before.filter((entry) => !now.has(keyOf(entry))).map(keyOf),
  };
}

function connectionChanges(before: TrackerSyncConfig, after: TrackerSyncConfig): KeyedChanges {
  return changesByKey(before.connections, after.connections, (c) => c.id);
}

/** The connections kept whose project is another now: their next runs go there, their history stays where it was made. */
function connectionMoves(before: TrackerSyncConfig, after: TrackerSyncConfig): ConnectionMove[] {
  const was = new Map(before.connections.map((c) => [c.id, projectNameOf(c)]));
  return after.connections
    .filter((c) => was.has(c.id) && was.get(c.id) !== projectNameOf(c))
    .map((c) => ({ connection: c.id, from: was.get(c.id)!, to: projectNameOf(c) }));
}

/** The projects (`projects:` blocks) added, changed and removed, by name. */
function projectChanges(before: TrackerSyncConfig, after: TrackerSyncConfig): KeyedChanges {
  const blocks = (config: TrackerSyncConfig) => Object.entries(config.projects ?? {});
  return changesByKey(blocks(before), blocks(after), ([name]) => name);
}

/** The sections that changed and wait for a restart: all but the connections, the projects and the scoped admin tokens. */
function sectionsChanged(before: TrackerSyncConfig, after: TrackerSyncConfig): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete('connections');
  keys.delete('projects');
  const section = (config: TrackerSyncConfig, key: string) => {
    const value = (config as unknown as Record<string, unknown>)[key];
    return JSON.stringify(key === 'admin' && value ? { ...value, tokens: undefined } : value);
  };
  return [...keys].filter((key) => section(before, key) !== section(after, key)).sort();
}

/** The scoped tokens added, changed and removed, by name (never the token itself), for the log line. */
function tokenChanges(before: TrackerSyncConfig, after: TrackerSyncConfig): string[] {
  return namedChanges(changesByKey(before.admin?.tokens ?? [], after.admin?.tokens ?? [], (t) => t.name));
}

/** `acme added`, `globex changed`, ... */
function namedChanges(changes: KeyedChanges): string[] {
  return (['added', 'changed', 'removed'] as const).flatMap((kind) => changes[kind].map((name) => `${name} ${kind}`));
}

function reloadLine(answer: ConfigReloadAnswer, projects: string[], tokens: string[], askedBy: string | null): string {
  const parts = (['added', 'changed', 'removed'] as const).filter((k) => answer[k].length).map((k) => `${k} ${answer[k].join(', ')}`);
  const connections = parts.length ? `connections ${parts.join('; ')}` : 'no connection changed';
  const moves = answer.moved.map((m) => `; ${m.connection} moved from project ${m.from} to project ${m.to} (its runs, rejections and alerts so far stay ${m.from}'s)`).join('');
  const named = projects.length ? `; projects: ${projects.join(', ')}` : '';
  const scoped = tokens.length ? `; admin tokens: ${tokens.join(', ')}` : '';
  const restart = answer.restart_required.length ? `; ${answer.restart_required.join(', ')} changed too: they take effect at the next restart` : '';
  return `config ${answer.file} reloaded${askedBy ? ` (${askedBy})` : ''}: ${connections}${moves}${named}${scoped}${restart}`;
}
