/** A project's own Api-key is a secret like tracker.api_key: cut out of every CLI line and admin answer. */
import { validateConfig } from '../../src/config';
import { SecretScrubber } from '../../src/secrets/secret-scrubber.service';

describe("a project's Api-key", () => {
  it('is cut out of text and answers', () => {
    const config = validateConfig({
      tracker: { base_url: 'https://api.example.test/v1', api_key: 'agency-key-0001' },
      projects: { acme: { project: '2', api_key: 'acme-own-key-0002' } },
    }, { env: {} });
    const scrubber = new SecretScrubber(config);
    expect(scrubber.text('401 for Api-key acme-own-key-0002 on project 2')).not.toContain('acme-own-key-0002');
    expect(JSON.stringify(scrubber.scrub({ message: 'sent acme-own-key-0002' }))).not.toContain('acme-own-key-0002');
  });
});
