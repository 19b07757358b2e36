/**
 * `admin.tokens`: scoped admin tokens, so an agency can hand each client a view of their own projects. The rules
 * spanning keys (names unique, projects known, one token one holder) are `adminTokenProblems`, each naming its key
 * and never the token.
 */
import { Transform } from 'class-transformer';
import { Doc } from './config-doc';
import { ToLowerCase, ToText } from './config-transforms';
import { isMapping, Matches, OneOf, Text, TextList } from './config-validators';
import { DEFAULT_PROJECT } from './project-targets';

export const ADMIN_ROLES = ['viewer', 'operator'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export class AdminTokenConfig {
  @Doc('Name of the token (letters, digits, "-", "_"), unique among admin.tokens.', { type: 'string' })
  @Matches(/^[a-z0-9][a-z0-9_-]*$/i, 'must start with a letter or digit and contain only letters, digits, "-" and "_"')
  name: string;

  @Doc('The bearer token (use ${ENV}); compared in constant time, never logged nor listed.', { type: 'string (secret)' })
  @ToText() @Text()
  token: string;

  @Doc('The projects it sees, by name (`default`: the tracker: project); everything else answers as if it did not exist.', { type: 'list of strings' })
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value)) @TextList()
  projects: string[];

  @Doc('viewer: reads only; operator: also sync, resync, pause, resume, clear cursors, retry rejected records and run flows of its connections.', {
    type: '"viewer" | "operator"',
  })
  @ToLowerCase() @OneOf(ADMIN_ROLES)
  role: AdminRole = 'viewer';
}

export function adminTokenProblems(admin: unknown, projectNames: readonly string[]): string[] {
  if (!isMapping(admin) || !Array.isArray(admin.tokens)) return [];
  const known = [DEFAULT_PROJECT, ...projectNames];
  const names = new Map<string, number>();
  const values = new Map<string, string>();
  if (typeof admin.token === 'string' && admin.token) values.set(admin.token, 'admin.token');
  const problems: string[] = [];
  admin.tokens.forEach((token, index) => {
    if (!isMapping(token)) return;
    const path = `admin.tokens[${index}]`;
    if (typeof token.name === 'string') {
      const first = names.get(token.name.toLowerCase());
      if (first === undefined) names.set(token.name.toLowerCase(), index);
      else problems.push(`${path}.name: ${JSON.stringify(token.name)} is already the name of admin.tokens[${first}]`);
    }
    if (typeof token.token === 'string' && token.token) {
      // one value, two holders: the answer could not tell which scope applies (the value itself is never shown)
      const first = values.get(token.token);
      if (first) problems.push(`${path}.token: is the same token as ${first}`);
      else values.set(token.token, `${path}.token`);
    }
    if (Array.isArray(token.projects)) {
      token.projects.forEach((name, i) => {
        if (typeof name === 'string' && name && !known.includes(name)) {
          problems.push(`${path}.projects[${i}]: "${name}" is not a project (one of ${known.map((k) => JSON.stringify(k)).join(', ')})`);
        }
      });
      if (token.projects.length === 0) problems.push(`${path}.projects: must name at least one project`);
    }
  });
  return problems;
}
