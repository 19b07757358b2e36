import http from 'node:http';
import { AddressInfo } from 'node:net';
import type { CanonicalRecord, CustomEvent, Expense, Lead, MediaPlanTarget, StreamName } from '../../src/connectors/canonical';
import { defineConnector } from '../../src/connectors/connector-definition';
import { ConnectionConfig } from '../../src/config/config.schema';
import { createSyncService } from '../../src/engine/engine-parts';
import { TrackerClient } from '../../src/tracker/tracker-client';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { EngineHarness, memoryRegistry } from '../support/engine-harness';

/** What the proxy does with one request: pass it, answer it only after the client gave up, or drop it unsent. */
type Fault = 'late' | 'drop' | 'fail' | undefined;

const CLIENT_TIMEOUT_MS = 300;

/**
 * A loopback proxy in front of the sandbox: `late` forwards the request (the sandbox processes it) and answers
 * after the client's timeout; `drop` cuts the connection without forwarding; `fail` answers 500 unforwarded.
 */
class FaultyProxy {
  readonly seen: string[] = [];
  fault: (path: string, index: number) => Fault = () => undefined;
  private server!: http.Server;
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
    return this;
  }

  count(suffix: string): number {
    return this.seen.filter((p) => p.endsWith(suffix)).length;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://proxy');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const fault = this.fault(path, this.seen.filter((p) => p === path).length);
    this.seen.push(path);
    if (fault === 'drop') return void req.socket.destroy();
    if (fault === 'fail') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"status":"error","error":"internal_error"}');
    const answer = await fetch(`${this.target}${path}${url.search}`, {
      method: req.method,
      headers: { 'content-type': 'application/json', 'api-key': String(req.headers['api-key']), 'use-http-code': '1' },
      body: req.method === 'GET' && chunks.length === 0 ? undefined : Buffer.concat(chunks),
    });
    const text = await answer.text();
    if (fault === 'late') await new Promise((resolve) => setTimeout(resolve, CLIENT_TIMEOUT_MS + 200));
    if (!res.socket || res.socket.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  }
}

/** A source of the extra streams, whole reads (no cursor). */
const extras: Partial<Record<StreamName, CanonicalRecord[]>> = {};
const extrasConnector = defineConnector<{ source: string }>({
  name: 'extras',
  settingsClass: class {
    source = 'x';
  },
  streams: () => (['mediaplans', 'leads', 'events', 'expenses'] as StreamName[]).filter((s) => extras[s]?.length).map((name) => ({ name, incremental: false })),
  check: async () => ({ ok: true, message: 'extras' }),
  async *read(stream) {
    const records = extras[stream] ?? [];
    yield { records: records.map((r) => structuredClone(r)) };
  },
});

describe('engine: no duplicate from a create call that timed out (sandbox behind a loopback proxy)', () => {
  let h: EngineHarness;
  let sandbox: SandboxHarness;
  let proxy: FaultyProxy;
  let direct: TrackerClient;

  beforeEach(async () => {
    for (const key of Object.keys(extras)) delete extras[key as StreamName];
    h = await new EngineHarness({ connectionId: 'extras', batchSize: 10 }).start();
    sandbox = await SandboxHarness.start();
    const project = String(sandbox.projectId); // the demo project: it has channels; the test's dates are years away from its data
    proxy = await new FaultyProxy(sandbox.baseUrl).start();
    await h.tracker.close();
    h.tracker = new TrackerClient({ baseUrl: proxy.url, apiKey: sandbox.apiKey, project, rateLimit: 'off', retries: 3, retryBaseMs: 5, timeoutMs: CLIENT_TIMEOUT_MS });
    direct = new TrackerClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, project, rateLimit: 'off' });
    const registry = memoryRegistry();
    registry.register(extrasConnector);
    h.config.connections = [Object.assign(new ConnectionConfig(), { id: 'extras', connector: 'extras', settings: { source: 'x' } })];
    h.sync = createSyncService(h.dataSource, h.tracker, registry, h.config, h.logger);
  });

  afterEach(async () => {
    await direct.close();
    await h.stop();
    await proxy.close();
    await sandbox.close();
  });

  const leads = (n: number): Lead[] =>
    Array.from({ length: n }, (_, i) => ({ id: `L${i + 1}`, title: `Lead ${i + 1}`, name: `Person ${i + 1}`, created_at: new Date(Date.UTC(2031, 2, 1, 10, i)), status: '0' }));

  async function leadsInService(): Promise<string[]> {
    const answer = await direct.leads.list({ period: { from: '2031-03-01T00:00:00.000Z', to: '2031-03-02T00:00:00.000Z' }, sort_field: 'creation_date', limit: 100 });
    return answer.leads.map((l) => l.title).sort();
  }

  it('a lead create that landed but timed out is looked up, found, and not sent again', async () => {
    extras.leads = leads(3);
    proxy.fault = (path, i) => (path === '/project/leads/lead/create' && i === 1 ? 'late' : undefined);
    const run = await h.run();
    expect(run.error).toBeNull();
    expect(run.streams.leads).toEqual({ read: 3, unchanged: 0, sent: 3, rejected: 0, sent_without_visit: 0 }); // no uncertain
    expect(proxy.count('/lead/create')).toBe(3);
    expect(proxy.count('/lead/list')).toBe(1);
    expect(await leadsInService()).toEqual(['Lead 1', 'Lead 2', 'Lead 3']);
  });

  it('a lead create dropped before it reached the service is looked up, not found, and sent again once', async () => {
    extras.leads = leads(2);
    proxy.fault = (path, i) => (path === '/project/leads/lead/create' && i === 0 ? 'drop' : undefined);
    const run = await h.run();
    expect(run.streams.leads).toMatchObject({ sent: 2 });
    expect(proxy.count('/lead/create')).toBe(3);
    expect(await leadsInService()).toEqual(['Lead 1', 'Lead 2']);
  });

  it('when the lookup itself fails, the lead is reported uncertain and not sent again', async () => {
    extras.leads = leads(2);
    proxy.fault = (path, i) => (path === '/project/leads/lead/create' && i === 0 ? 'late' : path === '/project/leads/lead/list' ? 'fail' : undefined);
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(run.streams.leads).toMatchObject({ read: 2, sent: 1, rejected: 0, uncertain: 1 });
    expect(proxy.count('/lead/create')).toBe(2);
    expect(await leadsInService()).toEqual(['Lead 1', 'Lead 2']); // it had landed: no duplicate
    const rows = await h.query(`SELECT external_id, field, reason, source FROM rejected_record WHERE stream = 'leads'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ external_id: 'L1', field: 'delivery', source: 'service' });
    expect(rows[0].reason).toMatch(/^uncertain: tracker leads\.create .* ECONNABORTED.*; it may have been processed; looking it up failed: .*HTTP 500.*so it was not sent again/);
    // in the record state: the next run does not send it again on its own
    expect(await h.query(`SELECT COUNT(*) AS n FROM record_state WHERE stream = 'leads'`)).toEqual([{ n: 2 }]);
    proxy.fault = () => undefined;
    const next = await h.run();
    expect(next.streams.leads).toMatchObject({ read: 2, unchanged: 2, sent: 0 });
    expect(proxy.count('/lead/create')).toBe(2);
    expect(await leadsInService()).toEqual(['Lead 1', 'Lead 2']);
  });

  it('an uncertain lead that had not landed is created by a retry by hand of the run\'s rejected records', async () => {
    extras.leads = leads(2);
    proxy.fault = (path, i) => (path === '/project/leads/lead/create' && i === 0 ? 'drop' : path === '/project/leads/lead/list' ? 'fail' : undefined);
    const run = await h.run();
    expect(run.streams.leads).toMatchObject({ sent: 1, uncertain: 1 });
    expect(await leadsInService()).toEqual(['Lead 2']);
    proxy.fault = () => undefined;
    const retry = await (await h.sync.retryRejected(run.runId)).done;
    expect(retry.status).toBe('succeeded');
    expect(retry.streams.leads).toMatchObject({ read: 1, sent: 1 });
    expect(await leadsInService()).toEqual(['Lead 1', 'Lead 2']);
  });

  it('a media plan and an expense whose create landed but timed out exist once', async () => {
    const channel = (await direct.channels.list()).data[0].system_name;
    const plan: MediaPlanTarget = { id: 'P1', channel, date_from: '2031-03-01', date_to: '2031-03-31', leads: 40, marketing_cost: 1000 };
    const expense: Expense = { id: 'E1', channel, from_date: '2031-03-01', to_date: '2031-03-31', marketing_cost: 5000 };
    extras.mediaplans = [plan];
    extras.expenses = [expense];
    proxy.fault = (path, i) => ((path === '/project/mediaplan/target/create' || path === '/project/analytics/source/cost/add') && i === 0 ? 'late' : undefined);
    const run = await h.run();
    expect(run.error).toBeNull();
    expect(run.streams.mediaplans).toMatchObject({ sent: 1 });
    expect(run.streams.expenses).toMatchObject({ sent: 1 });
    expect(proxy.count('/mediaplan/target/create')).toBe(1);
    expect(proxy.count('/source/cost/add')).toBe(1);
    const plans = await direct.mediaplans.list({ date_from: '2031-03-01', date_to: '2031-03-31' });
    expect(plans.data.filter((p) => p.channel === channel)).toHaveLength(1);
    const costs = (await direct.channels.listExpenses()) as unknown as { source: string; from_date: string }[];
    expect(costs.filter((e) => e.source === channel && e.from_date === '2031-03-01')).toHaveLength(1);
  });

  it('an events bulk send that timed out is not sent again: its events are uncertain, shown with the reason', async () => {
    await direct.events.add([{ display_name: 'signup-uncertain', type: 'url', parameter: '/thanks' }]);
    extras.events = Array.from({ length: 4 }, (_, i): CustomEvent => ({ id: `ev${i + 1}`, name: 'signup-uncertain', data: { n: i + 1 } }));
    proxy.fault = (path) => (path === '/project/events/bulk/send' ? 'late' : undefined);
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(run.streams.events).toMatchObject({ read: 4, sent: 0, rejected: 0, uncertain: 4 });
    expect(proxy.count('/events/bulk/send')).toBe(1);
    const log = await direct.events.log({ name: 'signup-uncertain' });
    expect(log.items).toHaveLength(4); // landed once, never twice
    expect(run.rejectedCount).toBe(4);
    expect(run.rejected[0]).toMatchObject({ stream: 'events', field: 'delivery' });
    expect(run.rejected[0].reason).toMatch(/^uncertain: tracker events\.bulkSend .*event log cannot tell these triggers from repeated ones, so it was not sent again, now or by later runs/);
    proxy.fault = () => undefined;
    const next = await h.run();
    expect(next.streams.events).toMatchObject({ read: 4, unchanged: 4, sent: 0 });
    expect(proxy.count('/events/bulk/send')).toBe(1);
  });
});
