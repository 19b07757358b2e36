import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { removeDir, runCliInProcess, tempDir } from '../cli/cli-harness';
import * as amocrm from '../fixtures/crm/amocrm';
import * as bitrix24 from '../fixtures/crm/bitrix24';
import { CrmServer, FixtureRequest, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as hubspot from '../fixtures/crm/hubspot';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { amocrmWebhooks, pipedriveWebhooks, WebhookApi } from '../fixtures/crm/webhook-registrations';

const HOST = 'https://sync.example.com';
const SECRETS = { amo: 'amo-hook-secret-41c9', pd: 'pd-hook-password-77e2', hs: 'hs-client-secret-0a1b', b24: 'b24-app-token-5d6e' };

/** The Pipedrive v1 OpenAPI's webhooks paths, kept in the repository with their provenance. */
const SPEC = JSON.parse(readFileSync(join(__dirname, '../fixtures/crm/specs/pipedrive-v1-webhooks.json'), 'utf8'));

/** Every property name a schema declares (through allOf). */
function declared(schema: any): Set<string> {
  const names = new Set<string>(Object.keys(schema?.properties ?? {}));
  for (const part of schema?.allOf ?? []) for (const name of declared(part)) names.add(name);
  return names;
}

/**
 * `webhooks register|list|unregister` against the amoCRM and Pipedrive fixture CRMs (their webhook APIs as the
 * vendors document them): registering twice leaves one registration each; HubSpot and an inbound-webhook
 * Bitrix24 portal get the steps to follow; the secret is never printed.
 */
describe('cli webhooks register / list / unregister', () => {
  let dir: string;
  let config: string;
  let amo: WebhookApi;
  let pd: WebhookApi;
  const servers: CrmServer[] = [];
  let pdServer: CrmServer;
  const cli = (...args: string[]) => runCliInProcess(['--config', config, 'webhooks', ...args]);

  beforeAll(async () => {
    dir = tempDir();
    amo = amocrmWebhooks(amocrm.handler, amocrm.TOKEN);
    pd = pipedriveWebhooks(pipedrive.handler, pipedrive.TOKEN);
    const amoServer = await startCrmServer(amo.handler);
    pdServer = await startCrmServer(pd.handler);
    const hsServer = await startCrmServer(hubspot.handler);
    const b24Server = await startCrmServer(bitrix24.handler);
    servers.push(amoServer, pdServer, hsServer, b24Server);
    config = join(dir, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      tracker: { base_url: 'http://127.0.0.1:9/api/v1', api_key: 'unused-key', project: '1', rate_limit: 'off' },
      connections: [
        { id: 'amo', connector: 'generic-crm', settings: amocrm.settings(amoServer.url), webhook: { secret: SECRETS.amo } },
        { id: 'pd', connector: 'generic-crm', settings: pipedrive.settings(pdServer.url), webhook: { secret: SECRETS.pd } },
        { id: 'hs', connector: 'generic-crm', settings: hubspot.settings(hsServer.url), webhook: { secret: SECRETS.hs } },
        { id: 'b24', connector: 'generic-crm', settings: bitrix24.settings(b24Server.url), webhook: { secret: SECRETS.b24 } },
        { id: 'plain', connector: 'generic-crm', settings: amocrm.settings(amoServer.url) },
      ],
    }));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    removeDir(dir);
  });

  it('amoCRM: registered twice, one registration of https://host/hooks/<connection>/<secret> for deal add/update/status', async () => {
    const first = await cli('register', 'amo', '--url', HOST);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`webhook registered: ${HOST}/hooks/amo/*** (add_lead, update_lead, status_lead)`);
    const second = await cli('register', 'amo', '--url', HOST);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('1 earlier registration of this connection removed first');
    expect(amo.registrations()).toEqual([{ id: expect.any(Number), url: `${HOST}/hooks/amo/${SECRETS.amo}`, events: ['add_lead', 'update_lead', 'status_lead'] }]);
    for (const out of [first, second]) expect(out.stdout + out.stderr).not.toContain(SECRETS.amo);
  });

  it('Pipedrive: registered twice, one registration (POST /v1/webhooks, deal events, Basic auth with the secret), as its OpenAPI declares', async () => {
    const from = pdServer.requests.length;
    expect((await cli('register', 'pd', '--url', HOST)).code).toBe(0);
    const second = await cli('register', 'pd', '--url', `${HOST}/`);
    expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' });
    expect(second.stdout).toContain(`webhook registered: ${HOST}/hooks/pd (*.deal)`);
    expect(pd.registrations()).toEqual([{ id: expect.any(Number), url: `${HOST}/hooks/pd`, events: ['*.deal'], password: SECRETS.pd }]);
    expect(second.stdout).not.toContain(SECRETS.pd);

    // every request matches the spec: required fields and enums of the create; the answers declare no other keys
    const requests = pdServer.requests.slice(from).filter((r: FixtureRequest) => r.path.startsWith('/api/v1/webhooks'));
    expect(requests.map((r) => `${r.method} ${r.path.replace(/\d+$/, '{id}')}`)).toEqual([
      'GET /api/v1/webhooks', 'POST /api/v1/webhooks', 'GET /api/v1/webhooks',
      'GET /api/v1/webhooks', 'DELETE /api/v1/webhooks/{id}', 'POST /api/v1/webhooks', 'GET /api/v1/webhooks',
    ]);
    const create = SPEC.paths['/webhooks'].post.requestBody.content['application/json'].schema;
    for (const post of requests.filter((r) => r.method === 'POST')) {
      for (const key of create.required) expect({ key, present: typeof post.body[key] }).toEqual({ key, present: 'string' });
      expect(Object.keys(post.body).filter((key) => !(key in create.properties))).toEqual([]);
      for (const key of ['event_action', 'event_object', 'version']) expect(create.properties[key].enum).toContain(post.body[key]);
    }
    const listed = SPEC.paths['/webhooks'].get.responses['200'].content['application/json'].schema;
    const item = declared(declared(listed).has('data') ? listed.allOf[1].properties.data.items : {});
    const answer = (await fetch(`${pdServer.url}/api/v1/webhooks?api_token=${pipedrive.TOKEN}`).then((r) => r.json())) as { data: Record<string, unknown>[] };
    expect(item.size).toBeGreaterThan(10);
    for (const hook of answer.data) {
      expect(Object.keys(hook).filter((key) => !item.has(key))).toEqual([]);
    }
  });

  it('a registration of the connection at an earlier address is replaced; another integration\'s webhook is left alone', async () => {
    await fetch(`${pdServer.url}/api/v1/webhooks?api_token=${pipedrive.TOKEN}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscription_url: 'http://old-host:3000/hooks/pd', event_action: '*', event_object: 'deal', name: 'old' }),
    });
    await fetch(`${pdServer.url}/api/v1/webhooks?api_token=${pipedrive.TOKEN}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscription_url: 'https://zapier.example/hooks/pd2', event_action: 'create', event_object: 'person', name: 'other' }),
    });
    const listed = await cli('list', 'pd');
    expect(listed.stdout).toContain('connection pd: 2 webhooks registered');
    expect((await cli('register', 'pd', '--url', HOST)).stdout).toContain('2 earlier registrations of this connection removed first');
    expect(pd.registrations().map((r) => r.url).sort()).toEqual([`${HOST}/hooks/pd`, 'https://zapier.example/hooks/pd2']);
  });

  it('list and unregister: the connection\'s registrations, then none', async () => {
    const listed = await cli('list', 'amo');
    expect(listed.stdout).toContain(`connection amo: 1 webhook registered\n  ${HOST}/hooks/amo/*** (add_lead, update_lead, status_lead)`);
    const removed = await cli('unregister', 'amo');
    expect(removed.stdout).toContain('connection amo: 1 webhook registration removed');
    expect(amo.registrations()).toEqual([]);
    expect((await cli('list', 'amo')).stdout).toContain('connection amo: no webhook registered');
    expect((await cli('unregister', 'pd')).code).toBe(0);
    expect(pd.registrations().map((r) => r.url)).toEqual(['https://zapier.example/hooks/pd2']);
  });

  it('HubSpot and an inbound-webhook Bitrix24 portal: the exact steps, with the URL to enter', async () => {
    const hs = await cli('register', 'hs', '--url', HOST);
    expect(hs.code).toBe(0);
    expect(hs.stdout).toContain('connection hs: register the webhook by hand:');
    expect(hs.stdout).toContain(`Target URL: ${HOST}/hooks/hs`);
    expect(hs.stdout).toContain('deal.creation and deal.propertyChange');
    const b24 = await cli('register', 'b24', '--url', HOST);
    expect(b24.stdout).toContain('only for a connection with auth oauth2 (this one has webhook_path)');
    expect(b24.stdout).toContain(`Handler URL: ${HOST}/hooks/b24`);
    expect(b24.stdout).toContain('ONCRMDEALUPDATE');
    for (const out of [hs, b24]) expect(out.stdout).not.toMatch(/hs-client-secret|b24-app-token/);
  });

  it('a connection without webhook settings, or no address: a clear error, exit 1', async () => {
    const plain = await cli('register', 'plain', '--url', HOST);
    expect({ code: plain.code, stderr: plain.stderr.trim() }).toEqual({ code: 1, stderr: 'connection plain has no webhook settings (webhook: { secret: ... } in the config)' });
    const noUrl = await cli('register', 'amo');
    expect({ code: noUrl.code, stderr: noUrl.stderr.trim() }).toEqual({ code: 1, stderr: 'connection amo: say where the CRM reaches this daemon: --url https://your-host (or server.public_url)' });
  });
});
