import type { ProjectsDiscoveryResponse } from '../../application';

/** The projects the config's keys see, by service, each marked with its name in the config (or "not configured"). */
export function visibleProjectLines(result: ProjectsDiscoveryResponse): string[] {
  if (result.projects.length === 0) return ['the Api-keys of the config see no project'];
  const lines: string[] = [];
  let service = '';
  const width = Math.max(...result.projects.map((project) => project.project.length));
  for (const project of result.projects) {
    if (project.service !== service) {
      service = project.service;
      lines.push(`projects the Api-keys see on ${service}:`);
    }
    const configured = project.configured_as === null ? 'not configured'
      : project.configured_as === 'default' ? 'configured as default (the tracker: section)' : `configured as ${project.configured_as}`;
    lines.push(`  ${project.project.padStart(width)}  ${project.name} (${project.currency}): ${configured}`);
  }
  return lines;
}

/** Each configured project its key does not see (one line each, naming its key). */
export function unseenProjectLines(result: ProjectsDiscoveryResponse): string[] {
  return result.configured.filter((entry) => !entry.ok).map((entry) => `project ${entry.name}: check failed: ${entry.message}`);
}
