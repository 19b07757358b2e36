/**
 * The projects of the service this installation feeds: the `tracker:` project (named `default`) and each one
 * under `projects:`, with the `tracker:` section filling what a project block leaves out. Everything kept per
 * project (the request budget, statuses, alerts, metrics, scoped admin tokens) is keyed by these names.
 */
import type { ConnectionConfig, RateLimitConfig, TrackerSyncConfig } from './config.schema';

/** The name of the project of the `tracker:` section (connections without `project:` feed it). */
export const DEFAULT_PROJECT = 'default';

export interface ProjectTarget {
  /** the name in the config (`default` for the `tracker:` project) */
  name: string;
  /** the service's project number (absent for the `tracker:` project on the embedded sandbox: the sandbox's own) */
  project?: string;
  /** absent: the embedded sandbox */
  baseUrl?: string;
  apiKey?: string;
  rateLimit: RateLimitConfig | 'off';
}

/** Whether the config names projects beyond `tracker:` (then logs and metrics name each run's project). */
export function hasNamedProjects(config: Pick<TrackerSyncConfig, 'projects'>): boolean {
  return Object.keys(config.projects ?? {}).length > 0;
}

/** The project a connection feeds. */
export function projectNameOf(connection: Pick<ConnectionConfig, 'project'>): string {
  return connection.project ?? DEFAULT_PROJECT;
}

/** Every project of the config: `default` first, then `projects:` in the order written. */
export function projectTargets(config: Pick<TrackerSyncConfig, 'tracker' | 'projects'>): ProjectTarget[] {
  const tracker = config.tracker;
  const defaults: ProjectTarget = {
    name: DEFAULT_PROJECT, project: tracker.project, baseUrl: tracker.base_url, apiKey: tracker.api_key, rateLimit: tracker.rate_limit,
  };
  const named = Object.entries(config.projects ?? {}).map(([name, block]): ProjectTarget => ({
    name,
    project: block.project,
    baseUrl: block.base_url ?? tracker.base_url,
    apiKey: block.api_key ?? tracker.api_key,
    rateLimit: block.rate_limit ?? tracker.rate_limit,
  }));
  return [defaults, ...named];
}

/** One project by name; undefined for a name the config does not hold. */
export function projectTarget(config: Pick<TrackerSyncConfig, 'tracker' | 'projects'>, name: string): ProjectTarget | undefined {
  return projectTargets(config).find((target) => target.name === name);
}
