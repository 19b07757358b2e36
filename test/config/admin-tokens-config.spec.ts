/** `admin.tokens` in the config: scoped tokens, their projects and names checked, each problem named by its key. */
import { redactSecrets, validateConfig } from '../../src/config';
import { collectSecretValues } from '../../src/secrets/secret-values';
import { configProblems } from '../support/config-problems';

const problems = configProblems;

const base = { sandbox: { projects: 2 }, projects: { acme: { project: '2' } }, connections: [{ id: 'a', connector: 'spreadsheet', project: 'acme' }] };

describe('admin.tokens', () => {
  it('takes scoped tokens with their projects and role (viewer by default)', () => {
    const config = validateConfig({
      ...base,
      admin: { token: 'full', tokens: [{ name: 'acme', token: 'acme-secret', projects: ['acme'] }, { name: 'ops', token: 'ops-secret', projects: ['default', 'acme'], role: 'operator' }] },
    }, { env: {} });
    expect(config.admin.tokens.map((t) => [t.name, t.projects, t.role])).toEqual([['acme', ['acme'], 'viewer'], ['ops', ['default', 'acme'], 'operator']]);
    expect(validateConfig(base, { env: {} }).admin.tokens).toEqual([]);
    // shown nowhere: the config as answers and logs show it, and the scrubber's list of values to cut out of any text
    expect(JSON.stringify(redactSecrets(config))).not.toMatch(/acme-secret|ops-secret/);
    expect([...collectSecretValues(config)]).toEqual(expect.arrayContaining(['acme-secret', 'ops-secret']));
  });

  it('names the key of an unknown project, a repeated name, a token given twice and a bad role, never the token', () => {
    const found = problems({
      ...base,
      admin: {
        token: 'the-full-token',
        tokens: [
          { name: 'acme', token: 'one-secret', projects: ['acme', 'acme-typo'] },
          { name: 'ACME', token: 'one-secret', projects: ['default'] },
          { name: 'x', token: 'the-full-token', projects: ['acme'], role: 'admin' },
          { name: 'y', token: 'y-secret', projects: [] },
        ],
      },
    });
    expect(found).toEqual(expect.arrayContaining([
      'admin.tokens[0].projects[1]: "acme-typo" is not a project (one of "default", "acme")',
      'admin.tokens[1].name: "ACME" is already the name of admin.tokens[0]',
      'admin.tokens[1].token: is the same token as admin.tokens[0].token',
      'admin.tokens[2].token: is the same token as admin.token',
      'admin.tokens[2].role: "admin" must be one of "viewer", "operator"',
      'admin.tokens[3].projects: must name at least one project',
    ]));
    expect(found.join('\n')).not.toMatch(/one-secret|the-full-token/);
  });

  it('requires a name, a token and projects', () => {
    const found = problems({ ...base, admin: { tokens: [{ role: 'viewer' }] } });
    expect(found.filter((p) => p.startsWith('admin.tokens[0].')).map((p) => p.split(':')[0]).sort())
      .toEqual(['admin.tokens[0].name', 'admin.tokens[0].projects', 'admin.tokens[0].token']);
  });
});
