/**
 * A secret a server echoes back is masked in every form it may take, by each redactor: the daemon's scrubber
 * (answers, alerts), the tracker client's and the generic CRM's. The daemon's end-to-end case (a CRM's 500 read
 * back from the run, the log line and the alert) is in test/bad-input/source-errors.spec.ts.
 */
import { alertScrubber } from '../../src/alerts/alert-secrets';
import { validateConfig } from '../../src/config';
import { secretForms } from '../../src/http/secret-forms';
import { SecretScrubber } from '../../src/secrets/secret-scrubber.service';
import { secretRedactor } from '../../src/tracker/http/secret-redactor';
import { Redactor } from '../../connectors/generic-crm/http/redactor';

const SECRET = 'beta+qp/tok=en$$XY é"';

/** How servers echo it: each form, as a server writes it, beside the text it sits in. */
const ECHOES: Record<string, string> = {
  'as is': SECRET,
  'JSON.stringify': JSON.stringify(SECRET).slice(1, -1),
  "PHP's json_encode (\\/ and \\u00e9)": 'beta+qp\\/tok=en$$XY \\u00e9\\"',
  'percent-encoded': encodeURIComponent(SECRET),
  'percent-encoded, lower-case hex': encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  'form-encoded (+ for a space)': new URLSearchParams({ k: SECRET }).toString().slice(2),
  'a JSON string in a JSON string': JSON.stringify(JSON.stringify({ key: SECRET })).slice(1, -1),
  'PHP, escaped twice': JSON.stringify('beta+qp\\/tok=en$$XY \\u00e9\\"').slice(1, -1),
};

describe('a secret echoed by a server', () => {
  const config = validateConfig({
    connections: [{ id: 'crm', connector: 'generic-crm', settings: { token: SECRET } }],
  }, { env: {} });
  const redactors: Record<string, (text: string) => string> = {
    'the scrubber of answers': (text) => JSON.stringify(new SecretScrubber(config).scrub({ error: text })),
    'the scrubber of texts': (text) => new SecretScrubber(config).text(text),
    'the alerts': alertScrubber(config),
    'the tracker client': (text) => String(secretRedactor(SECRET)(text)) + JSON.stringify(secretRedactor(SECRET)({ error: text })),
    'the generic CRM': (text) => {
      const redactor = new Redactor();
      redactor.add(SECRET);
      return redactor.redact(text);
    },
  };

  it.each(Object.entries(redactors))('is masked in every form by %s', (_name, redact) => {
    for (const [form, echo] of Object.entries(ECHOES)) {
      const out = redact(`HTTP 500: {"error":"invalid key ${echo}","at":"/deals"}`);
      expect({ form, leaks: /tok|en\$\$XY|en%24/i.test(out), kept: out.includes('/deals') }).toEqual({ form, leaks: false, kept: true });
    }
  });

  it('has few forms, and one for a plain key', () => {
    expect(secretForms(['a1b2c3d4e5f6'])).toEqual(['a1b2c3d4e5f6']);
    expect(secretForms([SECRET]).length).toBeLessThan(20);
  });
});
