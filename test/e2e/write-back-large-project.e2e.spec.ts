import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { stringify } from 'yaml';
import { createStoreDataSource } from '../../src/store/store-data-source';
import type { Visit } from '../../src/tracker/types/visits.types';
import { removeDir, runCliInProcess, tempDir } from '../cli/cli-harness';
import { CrmServer, FixtureAnswer, FixtureRequest, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { SandboxHarness } from '../sandbox/sandbox-harness';
import { ServiceCallRecorder } from './service-call-recorder';

/**
 * Write-back on a large project (issue 31): the sandbox holds 200,000 orders of other integrations created in
 * the window, the connection a handful of deals. Each pass plans first: the window's first page tells how many
 * orders it holds, and looking up the connection's deals one by one (order info, then their visits) costs
 * seconds where the window's order list would take 19 minutes at its tiers. The CLI runs in this process
 * against the sandbox (its budget on: it answers 429 past the service's limits) behind a call recorder, with
 * the client's default budget; the CRM is a loopback fixture that records its updates.
 */

const BULK_ORDERS = 200_000;
const HOUR = 3_600_000;
const now = Date.now();
const deals = [
  { id: 'd1', title: 'Kitchen', created: new Date(now - 5 * HOUR).toISOString(), visit: '1000001' as string | null },
  { id: 'd2', title: 'Sofa', created: new Date(now - 4 * HOUR).toISOString(), visit: '1000002' },
  { id: 'd3', title: 'Wardrobe', created: new Date(now - 3 * HOUR).toISOString(), visit: '1000003' },
  { id: 'd4', title: 'Chair', created: new Date(now - 2 * HOUR).toISOString(), visit: '1000004' },
  { id: 'd5', title: 'Lamp', created: new Date(now - 1 * HOUR).toISOString(), visit: '1000005' },
  { id: 'd6', title: 'Walk-in', created: new Date(now - 0.5 * HOUR).toISOString(), visit: null },
];
const attributed = deals.filter((deal) => deal.visit).map((deal) => deal.id);
/** what the CRM holds in the written fields, per deal */
const crmFields = new Map<string, Record<string, string>>();

function handler(request: FixtureRequest): FixtureAnswer {
  if (request.method === 'GET' && request.path === '/deals') return { body: { items: deals } };
  const id = /^\/deals\/([^/]+)$/.exec(request.path)?.[1];
  if (request.method === 'PUT' && id && deals.some((deal) => deal.id === id)) {
    crmFields.set(id, { ...crmFields.get(id), ...(request.body as Record<string, string>) });
    return { body: { ok: true } };
  }
  return { status: 404, body: { error: `no route ${request.method} ${request.path}` } };
}

const connection = (id: string, crmUrl: string) => ({
  id,
  connector: 'generic-crm',
  settings: {
    base_url: crmUrl,
    auth: { type: 'none' },
    streams: { deals: { request: { path: '/deals' }, records: 'items', mapping: { id: 'id', title: 'title', created_at: 'created', visit_id: 'visit' } } },
    write_back: {
      fields: { channel: 'source', city: 'city' },
      schedule: '0 3 * * *', // its own schedule: a sync is not followed by a write-back
      request: { method: 'PUT', path: '/deals/{{id}}', body: '{{values}}' },
    },
  },
});

describe('e2e: write-back on a project of 200,000 orders', () => {
  let sandbox: SandboxHarness;
  let recorder: ServiceCallRecorder;
  let crm: CrmServer;
  let dir: string;
  let config: string;
  let visits: Map<string, Visit>;
  const cli = (...args: string[]) => runCliInProcess([...args, '--config', config]);
  const updates = () => crm.requests.filter((request) => request.method === 'PUT');
  /** the calls the service took (a 429 of the sandbox's sliding window, retried by the client, is left out) */
  const taken = (from: number) => recorder.calls.slice(from).filter((call) => call.answer?.error !== 'too_many_requests');
  const callsTo = (path: string, from: number) => taken(from).filter((call) => call.path.includes(path));

  beforeAll(async () => {
    sandbox = await SandboxHarness.start({ budget: 'on' });
    await seedOrders(sandbox, BULK_ORDERS);
    recorder = await ServiceCallRecorder.start(sandbox.baseUrl);
    crm = await startCrmServer(handler);
    dir = tempDir();
    config = join(dir, 'config.yaml');
    writeFileSync(config, stringify({
      data_dir: join(dir, 'data'),
      // a quarter of the default hourly share: an order info counts 3.6 s at the limits (the service's 10/s, 5,000/h are kept)
      tracker: { base_url: recorder.url, api_key: sandbox.apiKey, project: String(sandbox.projectId), retries: 2, timeout_ms: 30_000, rate_limit: { per_second: 8, per_hour: 1_000 } },
      connections: ['shop', 'many', 'some'].map((id) => connection(id, crm.url)),
    }));
    const answer = await sandbox.post('project/site/visit/list', { filters: [['id', 'in', attributed.map((id) => deals.find((d) => d.id === id)!.visit!)]], limit: 100 });
    visits = new Map((answer.body.data as Visit[]).map((visit) => [visit.id, visit]));
  }, 120_000);

  afterAll(async () => {
    await crm?.close();
    await recorder?.close();
    await sandbox?.close();
    removeDir(dir);
  });

  it('the sync delivers the connection\'s deals into a window of 200,000 other orders', async () => {
    const sync = await cli('sync', 'shop');
    expect({ code: sync.code, stderr: notProgress(sync.stderr) }).toEqual({ code: 0, stderr: [] });
    const list = await sandbox.post('project/integration/order/list', { limit: 1 });
    expect(list.body.total).toBe(BULK_ORDERS + deals.length);
  }, 60_000);

  it('the dry run plans first: order info for the connection\'s deals, not the window\'s 200,006 orders; then each deal, nothing written', async () => {
    const from = recorder.calls.length;
    const dry = await cli('write-back', 'shop', '--dry-run');
    expect({ code: dry.code, stderr: notProgress(dry.stderr) }).toEqual({ code: 0, stderr: [] });
    const lines = dry.stdout.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      expect.stringMatching(/^connection shop: write-back plan: 200,006 orders of the project created since \d{4}-\d{2}-\d{2}; 6 deals of this connection synced since then$/),
      expect.stringMatching(/^ {2}chosen: order info for 6 deals of this connection, their visits from the visit list: 8 requests, about \d+ s at the service's limits$/),
      "  not:    the window's order list with visits: 200,006 orders in pages of up to 10,000: 21 requests, about 19 min at the service's limits",
    ]);
    expect(lines).toContain('connection shop: write-back dry run (nothing is written)');
    expect(lines.filter((line) => line.startsWith('deal '))).toEqual(attributed.map((id) => `deal ${id}`));
    expect(lines.at(-1)).toBe('would write 5 deals · attributed 5 · unchanged 0');
    expect(updates()).toEqual([]);
    // the plan's page and the dry run's (the same first page), one order info per deal, one visit list
    expect(callsTo('/integration/order/list', from).map((call) => [call.body.limit, call.body.offset])).toEqual([[99, 0], [99, 0]]);
    expect(callsTo('/info', from).map((call) => call.path.split('/').at(-2)).sort()).toEqual(deals.map((deal) => deal.id));
    expect(callsTo('/site/visit/list', from)).toHaveLength(1);
  }, 120_000);

  it('--json: the dry run\'s answer carries the plan, in requests and seconds at the service\'s limits', async () => {
    const dry = await cli('write-back', 'shop', '--dry-run', '--json');
    expect(dry.code).toBe(0);
    const { plan } = JSON.parse(dry.stdout);
    expect(plan.chosen).toEqual({ way: 'order_info', text: expect.any(String), requests: 8, seconds: expect.any(Number) });
    expect(plan.chosen.seconds).toBeCloseTo(7 * 3.6); // 7 requests at 1,000 an hour
    // 20 pages of 10,000 after the first: the first of that tier at once, then one a minute
    expect(plan.others).toEqual([{ way: 'order_pages', text: expect.any(String), requests: 21, seconds: 19 * 60 }]);
  }, 120_000);

  it('the pass writes the attributed deals with their visit\'s values, looking up only them; a second pass writes nothing', async () => {
    const from = recorder.calls.length;
    const pass = await cli('write-back', 'shop');
    expect({ code: pass.code, stderr: notProgress(pass.stderr) }).toEqual({ code: 0, stderr: [] });
    expect(pass.stdout).toMatch(/^connection shop: write-back plan: 200,006 orders/m);
    expect(pass.stderr).toMatch(/^\S+ run \d+ write_back: 100% \(6 of 6 deals\) · attributed 5 · written 5 · unchanged 0 · rejected 0$/m);
    expect(pass.stdout).toMatch(/^write-back: attributed 5 · written 5 · unchanged 0 · rejected 0$/m);
    expect(updates().map((request) => request.path).sort()).toEqual(attributed.map((id) => `/deals/${id}`));
    for (const id of attributed) {
      const visit = visits.get(deals.find((deal) => deal.id === id)!.visit!)!;
      expect({ id, fields: crmFields.get(id) }).toEqual({ id, fields: { source: visit.source.display_name_by_level.join(' / '), city: visit.geo.city } });
    }
    const orderLists = callsTo('/integration/order/list', from);
    expect(orderLists.every((call) => call.body.limit === 99 && call.body.offset === 0)).toBe(true);

    const again = await cli('write-back', 'shop');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^write-back: attributed 5 · written 0 · unchanged 5 · rejected 0$/m);
    expect(updates()).toHaveLength(attributed.length);
  }, 120_000);

  describe('a connection with thousands of deals synced in the window', () => {
    beforeAll(async () => {
      // what its syncs would have left in the store: 3,000 deals of `many` and 100 of `some`, acknowledged now
      await seedSyncedDeals(join(dir, 'data'), 'many', 3_000);
      await seedSyncedDeals(join(dir, 'data'), 'some', 100);
    });

    it('reads the window\'s pages (cheaper than 3,000 order infos); above 5 minutes, without a terminal or --yes, it explains and exits 1 having sent only the plan\'s request', async () => {
      for (const args of [['--dry-run'], []]) {
        const from = recorder.calls.length;
        const refused = await cli('write-back', 'many', ...args);
        expect({ code: refused.code, stdout: refused.stdout.trim().split('\n') }).toEqual({
          code: 1,
          stdout: [
            expect.stringMatching(/^connection many: write-back plan: 200,006 orders .*; 3,000 deals of this connection synced since then$/),
            "  chosen: the window's order list with visits: 200,006 orders in pages of up to 10,000: 21 requests, about 19 min at the service's limits",
            '  not:    order info for 3,000 deals of this connection, their visits from the visit list: 3,031 requests, about 3 h 02 min at the service\'s limits',
          ],
        });
        expect(refused.stderr.trim()).toBe(`connection many: this ${args.length ? 'dry run' : 'write-back'} reads the window's order list with visits: `
          + "200,006 orders in pages of up to 10,000: 21 requests, about 19 min at the service's limits (more than 5 min): "
          + 'not started without a yes; run it again with --yes to spend that (or from a terminal, to be asked)');
        expect(taken(from).map((call) => [call.path.replace(/^.*\/project\//, ''), call.body?.limit])).toEqual([['integration/order/list', 99]]);
      }
      expect(updates()).toHaveLength(attributed.length);
    }, 120_000);

    it('with --yes the dry run spends it, with progress like a sync (deals done of total, time left)', async () => {
      const refused = await cli('write-back', 'some', '--dry-run');
      expect(refused.code).toBe(1);
      expect(refused.stdout).toMatch(/chosen: order info for 100 deals .*: 102 requests, about 7 min at the service's limits$/m);
      const from = recorder.calls.length;
      const dry = await cli('write-back', 'some', '--dry-run', '--yes');
      expect({ code: dry.code, stderr: notProgress(dry.stderr) }).toEqual({ code: 0, stderr: [] });
      // none of the 100 is an order of the service (404): nothing to write
      expect(dry.stdout).toMatch(/^would write 0 deals · attributed 0 · unchanged 0$/m);
      const progress = dry.stderr.split('\n').filter((line) => / dry run write_back: /.test(line));
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.at(-1)).toMatch(/100% \(100 of 100 deals\)/);
      expect(progress.some((line) => /\(\d+ of 100 deals\) .* left$/.test(line))).toBe(true);
      expect(callsTo('/info', from)).toHaveLength(100);
    }, 180_000);
  });
});

/** stderr's lines other than progress lines (stderr is not a terminal: plain progress lines, once per stream or pass) */
function notProgress(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !/^\S+Z (run \d+|dry run) \w+: /.test(line));
}

/**
 * Orders of other integrations, written into the sandbox's own database in one statement (200,000 add-orders
 * requests would take longer than the test): spread over the last 20 days, without visits.
 */
async function seedOrders(sandbox: SandboxHarness, count: number): Promise<void> {
  const dataSource = sandbox.app.get<DataSource>(SandboxHarness.dataSourceToken);
  await dataSource.query(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO sb_order (project_id, id, name, creation_date, update_date, paid_date, status_id, tracker, client_id, revenue, cost, fields, products, history, hash)
     SELECT ?, 'other-' || i, NULL, strftime('%Y-%m-%dT%H:%M:%S+0000', ?, '-' || (i % 1728000) || ' seconds'), NULL, NULL, '0', NULL, NULL, 1000, NULL, '{}', '[]', '[]', 'seeded'
     FROM n`,
    [count, sandbox.projectId, new Date(Date.now() - 6 * HOUR).toISOString().slice(0, 19)],
  );
}

/** Deals a connection's syncs delivered (record_state of its deals stream), none of them an order of the service. */
async function seedSyncedDeals(dataDir: string, connectionId: string, count: number): Promise<void> {
  const store = await createStoreDataSource({ dataDir });
  try {
    await store.query(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO record_state (connection_id, stream, external_id, fingerprint, acknowledged_at)
       SELECT ?, 'deals', ? || '-' || i, 'seeded', ? FROM n`,
      [count, connectionId, connectionId, new Date().toISOString()],
    );
  } finally {
    await store.destroy();
  }
}
