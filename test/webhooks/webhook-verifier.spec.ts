import { createHmac } from 'node:crypto';
import { ConfigError, validateConfig } from '../../src/config';
import { redactSecrets } from '../../src/config/redact';
import type { WebhookVerification } from '../../src/connectors/webhook-capability';
import { fromConfig } from '../../src/webhooks/webhook-rules';
import { verifyWebhookCall, WebhookCall } from '../../src/webhooks/webhook-verifier';
import { hubspotSignature } from '../fixtures/crm/webhook-calls';

const SECRET = 's3cret-value-of-the-hook';
const NOW = Date.parse('2026-11-27T12:00:00Z');
const body = Buffer.from('{"event":"deal.updated","id":42}');

function call(overrides: Partial<WebhookCall> = {}): WebhookCall {
  return { method: 'POST', uri: 'https://sync.example.com/hooks/crm', headers: {}, body, now: NOW, ...overrides };
}

/** The declarative verifications (`webhook.verify` and the presets'), one rule at a time. */
describe('webhook verification', () => {
  it('hmac over the body: hex or base64, sha256 or sha1, with a prefix; any other signature is refused', () => {
    const cases: { rule: WebhookVerification; header: string }[] = [
      { rule: { type: 'hmac', header: 'X-Signature', algorithm: 'sha256', encoding: 'hex', signed: 'body' }, header: createHmac('sha256', SECRET).update(body).digest('hex') },
      { rule: { type: 'hmac', header: 'X-Signature', algorithm: 'sha1', encoding: 'base64', signed: 'body' }, header: createHmac('sha1', SECRET).update(body).digest('base64') },
      { rule: { type: 'hmac', header: 'X-Hub-Signature-256', algorithm: 'sha256', encoding: 'hex', signed: 'body', prefix: 'sha256=' }, header: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex').toUpperCase()}` },
    ];
    for (const { rule, header } of cases) {
      const name = (rule as { header: string }).header.toLowerCase();
      expect(verifyWebhookCall(rule, SECRET, call({ headers: { [name]: header } }))).toEqual({ ok: true });
      expect(verifyWebhookCall(rule, 'other-secret', call({ headers: { [name]: header } })).ok).toBe(false);
      expect(verifyWebhookCall(rule, SECRET, call({ headers: { [name]: header }, body: Buffer.from('{"event":"deal.updated","id":43}') })).ok).toBe(false);
      expect(verifyWebhookCall(rule, SECRET, call())).toEqual({ ok: false, reason: `no ${(rule as { header: string }).header} header` });
    }
  });

  it('hmac over a template (HubSpot v3): method, URI, body and a header; the timestamp within 5 minutes either way', () => {
    const rule: WebhookVerification = {
      type: 'hmac', header: 'X-HubSpot-Signature-v3', algorithm: 'sha256', encoding: 'base64',
      signed: '{{method}}{{uri}}{{body}}{{header.x-hubspot-request-timestamp}}', timestampHeader: 'X-HubSpot-Request-Timestamp', maxAgeMs: 300_000,
    };
    const signed = (at: number, uri = 'https://sync.example.com/hooks/crm') => call({ headers: hubspotSignature(SECRET, 'POST', uri, body.toString(), String(at)) });
    expect(verifyWebhookCall(rule, SECRET, signed(NOW - 299_000))).toEqual({ ok: true });
    expect(verifyWebhookCall(rule, SECRET, signed(NOW - 301_000))).toEqual({ ok: false, reason: 'the X-HubSpot-Request-Timestamp is more than 300 s from now' });
    expect(verifyWebhookCall(rule, SECRET, signed(NOW + 301_000)).ok).toBe(false);
    // signed for another address (public_url matters)
    expect(verifyWebhookCall(rule, SECRET, signed(NOW, 'http://127.0.0.1:3000/hooks/crm'))).toEqual({ ok: false, reason: 'the X-HubSpot-Signature-v3 signature is wrong' });
  });

  it('basic, path_secret, header_secret and form_field compare the secret exactly', () => {
    const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
    expect(verifyWebhookCall({ type: 'basic' }, SECRET, call({ headers: basic('anyone', SECRET) }))).toEqual({ ok: true });
    expect(verifyWebhookCall({ type: 'basic' }, SECRET, call({ headers: basic('anyone', `${SECRET}x`) })).ok).toBe(false);
    expect(verifyWebhookCall({ type: 'basic' }, SECRET, call({ headers: { authorization: `Bearer ${SECRET}` } })).ok).toBe(false);
    expect(verifyWebhookCall({ type: 'path_secret' }, SECRET, call({ pathSecret: SECRET }))).toEqual({ ok: true });
    expect(verifyWebhookCall({ type: 'path_secret' }, SECRET, call({ pathSecret: SECRET.slice(0, -1) })).ok).toBe(false);
    expect(verifyWebhookCall({ type: 'path_secret' }, SECRET, call()).ok).toBe(false);
    expect(verifyWebhookCall({ type: 'header_secret', header: 'X-Hook-Token' }, SECRET, call({ headers: { 'x-hook-token': SECRET } }))).toEqual({ ok: true });
    expect(verifyWebhookCall({ type: 'header_secret', header: 'X-Hook-Token' }, SECRET, call({ headers: { 'x-hook-token': 'no' } })).ok).toBe(false);
    const form = Buffer.from(new URLSearchParams({ event: 'ONCRMDEALUPDATE', 'auth[application_token]': SECRET }).toString());
    expect(verifyWebhookCall({ type: 'form_field', field: 'auth[application_token]' }, SECRET, call({ body: form }))).toEqual({ ok: true });
    expect(verifyWebhookCall({ type: 'form_field', field: 'auth[application_token]' }, 'other', call({ body: form })).ok).toBe(false);
  });
});

describe('webhook settings in the config', () => {
  const connection = (webhook: unknown) => ({ connections: [{ id: 'crm', connector: 'example-custom', settings: {}, webhook }] });
  const problems = (webhook: unknown) => {
    try {
      validateConfig(connection(webhook), { env: { HOOK_SECRET: 'from-env-secret' } });
      return [];
    } catch (error) {
      return (error as ConfigError).problems;
    }
  };

  it('secret is required, ${ENV} expanded; debounce defaults to 3s and is a duration up to 10m', () => {
    const config = validateConfig(connection({ secret: '${HOOK_SECRET}' }), { env: { HOOK_SECRET: 'from-env-secret' } });
    expect(config.connections[0].webhook).toMatchObject({ secret: 'from-env-secret', debounce: '3s' });
    expect(problems({ debounce: '3s' })).toEqual(['connections[0].webhook.secret: is required']);
    expect(problems({ secret: 'x', debounce: 'soon' })).toEqual(['connections[0].webhook.debounce: "soon" must be a duration such as 500ms, 3s or 1m, at most 10m']);
    expect(problems({ secret: 'x', debounce: '11m' })).toHaveLength(1);
  });

  it('verify: a type of four; hmac and header_secret need their header; the rule the daemon applies', () => {
    expect(problems({ secret: 'x', verify: { type: 'magic' } })).toEqual(['connections[0].webhook.verify.type: "magic" must be one of "hmac", "basic", "path_secret", "header_secret"']);
    expect(problems({ secret: 'x', verify: { type: 'hmac' } })).toEqual(['connections[0].webhook.verify.header: is required']);
    expect(problems({ secret: 'x', verify: { type: 'hmac', header: 'X-Sig', algorithm: 'md5' } })).toHaveLength(1);
    const config = validateConfig(connection({ secret: 'x', verify: { type: 'hmac', header: 'X-Sig', encoding: 'base64', timestamp_header: 'X-Time', max_age: '2m' } }), { env: {} });
    expect(fromConfig(config.connections[0].webhook!.verify!)).toEqual({
      type: 'hmac', header: 'X-Sig', algorithm: 'sha256', encoding: 'base64', signed: 'body', prefix: undefined, timestampHeader: 'X-Time', maxAgeMs: 120_000,
    });
  });

  it('the secret is redacted wherever the config is shown', () => {
    const config = validateConfig(connection({ secret: 'very-secret-hook' }), { env: {} });
    expect(JSON.stringify(redactSecrets(JSON.parse(JSON.stringify(config))))).not.toContain('very-secret-hook');
  });
});
