/**
 * A tracker client and a request budget per project of the config (src/config/project-targets.ts), made when a
 * project is first used: an installation with 100 projects pays only for those that run. Each client sends its
 * project's number with its project's key, and draws from its project's budget only, so one client's backlog or
 * 429 storm never slows another project's runs.
 */
import type { ConnectionConfig, TrackerSyncConfig } from '../config/config.schema';
import { DEFAULT_PROJECT, projectNameOf, projectTarget, projectTargets, ProjectTarget } from '../config/project-targets';
import type { SharedRequestBudget } from '../budget/shared-request-budget';
import type { BudgetLimiters } from '../budget/budget-limiters';
import { createRequestBudget } from '../budget/create-request-budget';
import type { TrackerLogger, TrackerRequestEvent } from '../tracker/http/tracker-http';
import { TrackerClient, TrackerClientOptions } from '../tracker/tracker-client';

export interface ProjectClientsOptions {
  /** read at each use: a reload splices new connections into `config.connections` */
  config: Pick<TrackerSyncConfig, 'tracker' | 'projects' | 'connections'>;
  /** the `tracker:` project's client as bootstrap decided it (the real service, or the embedded sandbox) */
  defaults: TrackerClientOptions;
  /** where the budgets' counters are kept (Redis, the store); absent: each client keeps to its rate_limit alone (its own limiter) */
  limiters?: BudgetLimiters;
  logger?: TrackerLogger;
  /** every HTTP attempt of a project's client (metrics) */
  onRequest?: (event: TrackerRequestEvent, project: string) => void;
}

/** A connection names a project the running config does not hold. */
export class UnknownProjectError extends Error {
  constructor(readonly project: string) {
    super(`project "${project}" is not under projects: of the running config`);
  }
}

interface Built {
  client: TrackerClient;
  budget: SharedRequestBudget | null;
}

export class ProjectClients {
  private readonly built = new Map<string, Built>();
  /** clients of projects a reload changed or removed: runs that started with them finish on them; closed at the end */
  private readonly retired: Built[] = [];

  constructor(private readonly options: ProjectClientsOptions | { single: TrackerClient }) {}

  /** Every project answered by one client (a caller that feeds one project: tests, tools, benches). */
  static single(client: TrackerClient): ProjectClients {
    return new ProjectClients({ single: client });
  }

  /** The projects of the config: `default` first, then `projects:` in the order written. */
  names(): string[] {
    return 'single' in this.options ? [DEFAULT_PROJECT] : projectTargets(this.options.config).map((target) => target.name);
  }

  /** @throws UnknownProjectError */
  client(project: string): TrackerClient {
    return this.build(project).client;
  }

  /** The project's budget; null when its rate_limit is off (or for a single client). */
  budget(project: string): SharedRequestBudget | null {
    return this.build(project).budget;
  }

  /** The budgets made so far, by project (the others have sent nothing yet). */
  budgets(): { project: string; budget: SharedRequestBudget }[] {
    return [...this.built].flatMap(([project, { budget }]) => (budget ? [{ project, budget }] : []));
  }

  /** The project a connection feeds (by id: `default` for an id the config does not hold). */
  projectOf(connection: string | Pick<ConnectionConfig, 'project'>): string {
    if (typeof connection !== 'string') return projectNameOf(connection);
    if ('single' in this.options) return DEFAULT_PROJECT;
    const found = this.options.config.connections?.find((c) => c.id === connection);
    return found ? projectNameOf(found) : DEFAULT_PROJECT;
  }

  /** The client of the project a connection feeds. */
  forConnection(connection: string | Pick<ConnectionConfig, 'project'>): TrackerClient {
    return this.client(this.projectOf(connection));
  }

  /**
   * A reload changed or removed these projects (their number, key, URL or rate_limit): the next use builds each
   * from the running config again. Runs in flight keep the client they started with, as they keep their
   * connection's settings.
   */
  retire(projects: readonly string[]): void {
    for (const project of projects) {
      const done = this.built.get(project);
      if (!done) continue;
      this.built.delete(project);
      this.retired.push(done);
    }
  }

  /** The process is stopping: requests waiting for any budget give up (see SharedRequestBudget.stop). */
  stop(): void {
    for (const { budget } of [...this.built.values(), ...this.retired]) budget?.stop();
  }

  async close(): Promise<void> {
    if ('single' in this.options) return;
    await Promise.all([...this.built.values(), ...this.retired].map(({ client }) => client.close()));
  }

  /** Nest calls this when the module shuts down. */
  onModuleDestroy(): Promise<void> {
    return this.close();
  }

  private build(project: string): Built {
    const done = this.built.get(project);
    if (done) return done;
    if ('single' in this.options) return { client: this.options.single, budget: null };
    const target = projectTarget(this.options.config, project);
    if (!target) throw new UnknownProjectError(project);
    const made = this.make(target, this.options);
    this.built.set(project, made);
    return made;
  }

  private make(target: ProjectTarget, options: ProjectClientsOptions): Built {
    const base = clientOptionsOf(target, options.defaults);
    // each project's budget under its own scope (its service and number): it paces, backs off after a 429 and counts its hour apart
    const budget = options.limiters ? createRequestBudget({ limiters: options.limiters, baseUrl: base.baseUrl, project: base.project, rateLimit: base.rateLimit }) : null;
    const client = new TrackerClient({
      ...base,
      budget: budget ?? undefined,
      logger: options.logger,
      onRequest: options.onRequest && ((event) => options.onRequest!(event, target.name)),
    });
    return { client, budget };
  }
}

/**
 * Where a project's client goes: the `tracker:` project as bootstrap decided; a block with its own base URL (or on
 * a real service) to that service with its key; a block on the embedded sandbox to the sandbox, with the sandbox's
 * key and the block's project number.
 */
export function clientOptionsOf(target: ProjectTarget, defaults: TrackerClientOptions): TrackerClientOptions {
  if (target.name === DEFAULT_PROJECT) return defaults;
  const common = {
    timeoutMs: defaults.timeoutMs, retries: defaults.retries, retryBaseMs: defaults.retryBaseMs, rateLimit: target.rateLimit, configKey: `projects.${target.name}`,
  };
  if (!target.baseUrl) return { ...common, baseUrl: defaults.baseUrl, apiKey: defaults.apiKey, project: target.project, service: defaults.service };
  return { ...common, baseUrl: target.baseUrl, apiKey: target.apiKey ?? '', project: target.project };
}
