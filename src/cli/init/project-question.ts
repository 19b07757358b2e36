import type { VisibleProjectResponse } from '../../application';
import { DEFAULT_PROJECT, PROJECT_NAME } from '../../config';
import { projectNumberProblem } from '../../config/project-number';
import { ask } from './ask';
import type { InitFlags } from './init-answers';

export type ServiceAnswer = { url: string; keyEnv: string; key: string };

/** A block of `projects:` init adds (or finds there already), the service's URL and key when they are its own. */
export interface ProjectAnswer {
  name: string;
  number: string;
  service: { url: string; keyEnv: string; key: string } | null;
}

/** What the interactive init knows of the projects (from a boot of the config as it is). */
export interface ProjectChoices {
  /** the projects the key sees on the service (null: the sandbox's); null when they could not be listed */
  list(service: ServiceAnswer | null): Promise<VisibleProjectResponse[] | null>;
  /** the config's tracker: section already names the service (a new project then goes under projects:) */
  trackerTaken: boolean;
  takenName(name: string): boolean;
}

/**
 * On a terminal: which project the connection feeds. The key's projects are offered (each marked with its name in
 * the config); a single sandbox project is taken without asking. A project the config has is fed under its name; a
 * new one goes into tracker: (the service, while tracker: names none) or under projects: by a name asked for.
 */
export async function askProject(
  flags: InitFlags, service: ServiceAnswer | null, choices: ProjectChoices,
): Promise<{ number: string; project: ProjectAnswer | null }> {
  const seen = await choices.list(service);
  let number = flags.project;
  if (!number && seen && (seen.length > 1 || (service && seen.length === 1))) {
    number = await ask<string>({
      type: 'select', name: 'value', message: 'Which project do the deals go to?',
      choices: [
        ...seen.map((p) => ({ title: `${p.project}  ${p.name}${p.configured_as ? ` (in the config as ${p.configured_as})` : ''}`, value: p.project })),
        { title: 'another project number', value: '' },
      ],
    });
  }
  if (!number) {
    number = service
      ? await ask<string>({ type: 'text', name: 'value', message: 'The project number', validate: (v: string) => projectNumberProblem(v) ?? true })
      : '1';
  }
  const configuredAs = seen?.find((p) => p.project === number)?.configured_as;
  if (configuredAs === 'default') return { number, project: null };
  if (configuredAs) return { number, project: { name: configuredAs, number, service: null } };
  if (flags.projectName) return { number, project: { name: flags.projectName, number, service } };
  if (service ? !choices.trackerTaken : number === '1') return { number, project: null };
  const title = seen?.find((p) => p.project === number)?.name ?? '';
  const name = await ask<string>({
    type: 'text', name: 'value', message: `A name for project ${number} in this config (under projects:)`, initial: slug(title) || `project-${number}`,
    validate: (v: string) => projectNameProblem(v) ?? (choices.takenName(v) ? 'the config has a project of that name' : true),
  });
  return { number, project: { name, number, service } };
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

export function projectNameProblem(name: string): string | undefined {
  if (!PROJECT_NAME.test(name)) return 'a project\'s name has only letters, digits, "-" and "_"';
  if (name === DEFAULT_PROJECT) return `"${DEFAULT_PROJECT}" is the name of the tracker: section's project`;
  return undefined;
}
