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
