import { validateConfig } from '../../src/config';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import { loadConnectors } from '../../src/connectors/plugin-loader';
import { verificationOf } from '../../src/webhooks/webhook-rules';
import { verifyWebhookCall, WebhookCall } from '../../src/webhooks/webhook-verifier';
import { hubspotSignature } from '../fixtures/crm/webhook-calls';

/**
 * HubSpot's older webhook signatures (https://developers.hubspot.com/docs/api/webhooks/validating-requests and its
 * v1 and v2 pages, checked 2026-11-29): X-HubSpot-Signature-Version v1 = hex SHA-256 of client secret + body, v2 =
 * of client secret + method + URI + body. Their own examples are the cases here. A connection of the hubspot preset
 * accepts v3 only unless `webhook.signature_versions` names v1 or v2 (they sign no timestamp: replayable).
 */
const SECRET = 'yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy';
const V1_BODY = '[{"eventId":1,"subscriptionId":12345,"portalId":62515,"occurredAt":1564113600000,"subscriptionType":"contact.creation","attemptNumber":0,"objectId":123,"changeSource":"CRM","changeFlag":"NEW","appId":54321}]';
const v1Call = (signature = '232db2615f3d666fe21a8ec971ac7b5402d33b9a925784df3ca654d05f4817de'): WebhookCall => ({
  method: 'POST', uri: 'https://www.example.com/webhook_uri', body: Buffer.from(V1_BODY), now: Date.now(),
  headers: { 'x-hubspot-signature': signature, 'x-hubspot-signature-version': 'v1' },
});
const v2Call: WebhookCall = {
  method: 'GET', uri: 'https://www.example.com/webhook_uri', body: Buffer.alloc(0), now: Date.now(),
  headers: { 'x-hubspot-signature': 'eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e', 'x-hubspot-signature-version': 'v2' },
};

describe('HubSpot webhook signatures v1, v2 and v3 (preset hubspot, webhook.signature_versions)', () => {
  let registry: ConnectorRegistry;
  beforeAll(async () => {
    registry = await loadConnectors([], { log: () => undefined, warn: () => undefined });
  });

  const ruleOf = (webhook: Record<string, unknown>) => {
    const config = validateConfig({
      connections: [{ id: 'hs', connector: 'generic-crm', settings: { preset: 'hubspot', base_url: 'https://api.hubapi.com', token: 't' }, webhook: { secret: SECRET, ...webhook } }],
    }, { env: {} });
    return verificationOf(config.connections[0], registry)!;
  };

  it('by default only v3: a v1 or v2 call, even rightly signed, is refused', () => {
    const rule = ruleOf({});
    expect(verifyWebhookCall(rule, SECRET, v1Call())).toEqual({ ok: false, reason: 'v3: no X-HubSpot-Signature-v3 header' });
    expect(verifyWebhookCall(rule, SECRET, v2Call).ok).toBe(false);
    const stamp = String(Date.now());
    const v3 = { ...v1Call(), headers: hubspotSignature(SECRET, 'POST', 'https://www.example.com/webhook_uri', V1_BODY, stamp) };
    expect(verifyWebhookCall(rule, SECRET, v3)).toEqual({ ok: true });
  });

  it('opted in to v1: HubSpot\'s v1 example passes; a wrong hash, another secret or a v2 call does not', () => {
    const rule = ruleOf({ signature_versions: ['v1'] });
    expect(verifyWebhookCall(rule, SECRET, v1Call())).toEqual({ ok: true });
    expect(verifyWebhookCall(rule, SECRET, v1Call('0'.repeat(64)))).toEqual({ ok: false, reason: 'v1: the X-HubSpot-Signature signature is wrong' });
    expect(verifyWebhookCall(rule, 'another-secret', v1Call()).ok).toBe(false);
    expect(verifyWebhookCall(rule, SECRET, v2Call)).toEqual({ ok: false, reason: 'v1: the X-HubSpot-Signature-Version header is not v1' });
  });

  it('opted in to v2 and v3: HubSpot\'s v2 example passes, and so does a v3 call', () => {
    const rule = ruleOf({ signature_versions: ['v2', 'v3'] });
    expect(verifyWebhookCall(rule, SECRET, v2Call)).toEqual({ ok: true });
    expect(verifyWebhookCall(rule, SECRET, { ...v2Call, uri: 'https://www.example.com/other' }).ok).toBe(false);
    const stamp = String(Date.now());
    expect(verifyWebhookCall(rule, SECRET, { ...v2Call, headers: hubspotSignature(SECRET, 'GET', v2Call.uri, '', stamp) })).toEqual({ ok: true });
  });

  it('signature_versions takes v1, v2, v3 only', () => {
    expect(() => ruleOf({ signature_versions: ['v4'] })).toThrow(/webhook\.signature_versions/);
  });
});
