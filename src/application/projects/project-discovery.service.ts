import { Injectable } from '@nestjs/common';
import { DEFAULT_PROJECT, projectTargets, TrackerSyncConfig } from '../../config';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';
import { TrackerClient } from '../../tracker/tracker-client';
import type { Project } from '../../tracker/types/projects.types';
import type { ConfiguredProjectResponse, ProjectsDiscoveryResponse, VisibleProjectResponse } from '../answers/project.response';

export const SANDBOX_SERVICE = 'the embedded sandbox';
/** the `tracker:` section's project on the embedded sandbox (the daemon's target there) */
const SANDBOX_DEFAULT_PROJECT = '1';
const LIST_TIMEOUT_MS = 15_000;

/** A project of the config and how it is reached (absent URL: the embedded sandbox; absent key: the client's own). */
interface ConfiguredProject {
  name: string;
  key: string;
  project: string;
  service: string;
  baseUrl?: string;
  apiKey?: string;
}

/** What one key sees on one service, or why it could not be asked. */
interface Sight {
  projects: Project[];
  error?: string;
}

/**
 * The projects the config's keys see (`GET /user/projects`, one request per key and service) beside the projects
 * the config names (`tracker:` and `projects:`): which are configured and under which name, and each configured
 * project its key does not see (a failure naming its key). For `discover`, `check` and `init`.
 */
@Injectable()
export class ProjectDiscoveryService {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly tracker: TrackerClient,
    private readonly scrubber: SecretScrubber,
  ) {}

  async discover(): Promise<ProjectsDiscoveryResponse> {
    const configured = configuredProjects(this.config);
    const reaches = new Map<string, ConfiguredProject>();
    for (const entry of configured) if (!reaches.has(reachKey(entry))) reaches.set(reachKey(entry), entry);
    // the sandbox's own key is always asked: `init` offers its projects before any is configured
    if (!this.config.tracker.base_url) {
      const own: ConfiguredProject = { name: '', key: '', project: '', service: SANDBOX_SERVICE };
      if (!reaches.has(reachKey(own))) reaches.set(reachKey(own), own);
    }
    const sights = new Map<string, Sight>();
    await Promise.all([...reaches].map(async ([key, entry]) => sights.set(key, await this.sight(entry))));

    const answers = configured.map((entry) => this.verdict(entry, sights.get(reachKey(entry))!));
    const seen = new Map<string, VisibleProjectResponse>();
    for (const [key, sight] of sights) {
      for (const project of marked(sight.projects, reaches.get(key)!.service, configured)) seen.set(`${project.service}#${project.project}`, project);
    }
    const projects = [...seen.values()].sort((a, b) => a.service.localeCompare(b.service) || Number(a.project) - Number(b.project));
    return { ok: answers.every((answer) => answer.ok), projects, configured: answers };
  }

  /** The projects a key not (yet) in the config sees on the service at `baseUrl` (`init` offers them); throws when it cannot list them. */
  async visibleTo(target: { baseUrl: string; apiKey: string }): Promise<VisibleProjectResponse[]> {
    const service = target.baseUrl.replace(/\/+$/, '');
    const sight = await this.sight({ name: '', key: '', project: '', service, baseUrl: target.baseUrl, apiKey: target.apiKey });
    if (sight.error) throw new Error(`the projects of the Api-key on ${service} could not be listed: ${sight.error}`);
    return marked(sight.projects, service, configuredProjects(this.config)).sort((a, b) => Number(a.project) - Number(b.project));
  }

  private async sight(entry: ConfiguredProject): Promise<Sight> {
    const client = this.tracker.withTarget({ baseUrl: entry.baseUrl, apiKey: entry.apiKey }, { rateLimit: 'off', retries: 1, timeoutMs: LIST_TIMEOUT_MS });
    try {
      const answer = await client.projects.list();
      return { projects: answer.projects ?? [] };
    } catch (error) {
      return { projects: [], error: this.scrubber.text(error instanceof Error ? error.message : String(error)) };
    } finally {
      await client.close();
    }
  }

  private verdict(entry: ConfiguredProject, sight: Sight): ConfiguredProjectResponse {
    const answer = { name: entry.name, key: entry.key, project: entry.project, service: entry.service };
    if (sight.error) {
      return { ...answer, ok: false, message: `${entry.key}: the projects of its Api-key on ${entry.service} could not be listed: ${sight.error}` };
    }
    const found = sight.projects.find((project) => String(project.id) === entry.project);
    if (found) return { ...answer, ok: true, message: `the Api-key sees project ${entry.project} ("${found.name}") on ${entry.service}` };
    const numbers = sight.projects.map((project) => project.id).join(', ') || 'none';
    return {
      ...answer, ok: false,
      message: `${entry.key}: project ${entry.project} is not among the projects its Api-key sees on ${entry.service} (${numbers})`,
    };
  }
}

/**
 * The config's projects with a number: `tracker:`'s (the sandbox's project 1 there; on the service, when it names
 * one) and each block of `projects:`. On the embedded sandbox a block's key is its own `api_key` or the sandbox's.
 */
function configuredProjects(config: TrackerSyncConfig): ConfiguredProject[] {
  const onSandbox = !config.tracker.base_url;
  return projectTargets(config).flatMap((target): ConfiguredProject[] => {
    const isDefault = target.name === DEFAULT_PROJECT;
    const project = isDefault && onSandbox ? SANDBOX_DEFAULT_PROJECT : target.project;
    if (!project) return [];
    const key = isDefault ? 'tracker.project' : `projects.${target.name}`;
    if (!target.baseUrl) {
      const own = isDefault ? undefined : config.projects?.[target.name]?.api_key;
      return [{ name: target.name, key, project, service: SANDBOX_SERVICE, apiKey: own }];
    }
    return [{ name: target.name, key, project, service: target.baseUrl.replace(/\/+$/, ''), baseUrl: target.baseUrl, apiKey: target.apiKey }];
  });
}

/** The service's projects, each with its name in the config (matched by service and number) or null. */
function marked(projects: Project[], service: string, configured: ConfiguredProject[]): VisibleProjectResponse[] {
  return projects.map((project) => {
    const number = String(project.id);
    const name = configured.find((entry) => entry.service === service && entry.project === number)?.name ?? null;
    return { project: number, name: project.name, currency: project.currency, service, configured_as: name };
  });
}

function reachKey(entry: ConfiguredProject): string {
  return `${entry.service}\n${entry.apiKey ?? ''}`;
}
