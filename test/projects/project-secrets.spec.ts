/** Each project's api_key (and a password in its base URL) is cut out of answers, errors and alerts, like tracker.api_key. */
import { alertScrubber } from '../../src/alerts/alert-secrets';
import { validateConfig } from '../../src/config';
import { SecretScrubber } from '../../src/secrets/secret-scrubber.service';

const config = validateConfig({
  tracker: { base_url: 'https://api.example.test/v1', api_key: 'agency-key-0001', project: '100' },
  projects: {
    acme: { project: '2', api_key: 'acme-key-7f3a9c' },
    beta: { project: '3', base_url: 'https://user:beta-pass-51d8@beta.example.test/v1', api_key: 'beta-key-0d1e2f' },
  },
  connections: [],
}, { env: {} });

describe('secrets of projects', () => {
  const leak = 'refused Api-key acme-key-7f3a9c for project 2; beta-key-0d1e2f at https://user:beta-pass-51d8@beta.example.test/v1';

  it('are scrubbed from answers and error texts', () => {
    const scrubber = new SecretScrubber(config);
    const text = scrubber.text(leak);
    const answer = JSON.stringify(scrubber.scrub({ error: leak }));
    for (const secret of ['acme-key-7f3a9c', 'beta-key-0d1e2f', 'beta-pass-51d8']) {
      expect({ secret, inText: text.includes(secret), inAnswer: answer.includes(secret) }).toEqual({ secret, inText: false, inAnswer: false });
    }
    expect(text).toContain('for project 2');
  });

  it('are scrubbed from alerts', () => {
    const text = alertScrubber(config)(leak);
    expect(text).not.toMatch(/acme-key-7f3a9c|beta-key-0d1e2f|beta-pass-51d8/);
  });
});

describe('secrets of scoped tokens and alert URLs', () => {
  const withTokens = validateConfig({
    tracker: { base_url: 'https://api.example.test/v1', api_key: 'agency-key-0001', project: '100' },
    projects: { acme: { project: '2' }, globex: { project: '3' } },
    admin: {
      token: 'full-admin-token-000000',
      tokens: [{ name: 'acme-view', token: 'acme-view-token-9f8e7d', projects: ['acme'] }, { name: 'globex-view', token: 'globex-view-token-1a2b3c', projects: ['globex'] }],
    },
    alerts: [{ id: 'hook', type: 'webhook', url: 'https://alerts.example.test/fail500?token=WEB500secret0001&channel=ops', connections: ['*'] }],
    connections: [],
  }, { env: {} });

  it('cuts every scoped token out of texts and answers, as the admin token', () => {
    const scrubber = new SecretScrubber(withTokens);
    const leak = 'deal titled acme-view-token-9f8e7d and globex-view-token-1a2b3c';
    expect(scrubber.text(leak)).toBe('deal titled *** and ***');
    expect(JSON.stringify(scrubber.scrub({ title: leak }))).not.toMatch(/view-token/);
    expect(alertScrubber(withTokens)(leak)).toBe('deal titled *** and ***');
  });

  it("cuts an alert webhook's path, query and token out of a receiver's error that echoes them without the host", () => {
    const scrubber = new SecretScrubber(withTokens);
    const error = 'HTTP 500: {"error":"boom at /fail500?token=WEB500secret0001&channel=ops"} (token WEB500secret0001)';
    for (const text of [scrubber.text(error), alertScrubber(withTokens)(error)]) {
      expect(text).not.toContain('WEB500secret0001');
      expect(text).toContain('HTTP 500');
    }
  });
});

describe('a secret inside a URL that does not load', () => {
  function problemsOf(config: Record<string, unknown>): string {
    try {
      validateConfig({ connections: [], ...config }, { env: {} });
    } catch (e) {
      return String((e as { problems?: string[] }).problems?.join('\n') ?? e);
    }
    throw new Error('the config loaded');
  }

  it('is masked in the problem that names it, which still shows where the URL goes wrong', () => {
    const alert = problemsOf({ alerts: [{ id: 'slack', type: 'slack', url: 'hooks.slack.com/services/T0/B0/ACMEALERTsecret77', connections: ['*'] }] });
    const store = problemsOf({ store: { url: 'postgres://u:DBPASSsecret@bad host/db' } });
    const project = problemsOf({ tracker: { api_key: 'k-0001', project: '1' }, projects: { acme: { project: '2', base_url: 'https://u:PASSsecret9@bad host/api/v1' } } });
    for (const [problems, secret] of [[alert, 'ACMEALERTsecret77'], [store, 'DBPASSsecret'], [project, 'PASSsecret9']]) {
      expect(problems).not.toContain(secret);
      expect(problems).toMatch(/\*\*\*/);
    }
    expect(alert).toContain('hooks.slack.com/services/T0/B0/***');
    expect(store).toContain('postgres://***@bad host/db');
  });
});
