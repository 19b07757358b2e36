import { existsSync, mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import connector from '../../../connectors/generic-crm';
import type { CanonicalRecord, StreamName } from '../../../src/connectors/canonical';
import type { RejectedInput } from '../../../src/connectors/connector-definition';
import { CrmServer, FixtureRequest, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll, typedSettings } from '../read-helper';

/**
 * Streams that take their records from another stream's pages (`clients: { from: deals, records: customer }`):
 * each deal page is fetched once per run, and the first run leaves an undefined `{{cursor}}` out.
 */

const orders = [
  { id: 1, updated: '2025-03-01T10:00:00Z', customer: { id: 'c1', name: 'Анна', email: 'ANNA@example.com' } },
  { id: 2, updated: '2025-03-01T11:00:00Z', customer: { id: 'c2', name: 'Борис' } },
  { id: 3, updated: '2025-03-02T09:00:00Z', customer: { id: 'c1', name: 'Анна Петрова', email: 'anna@example.com' } },
  { id: 4, updated: '2025-03-03T09:00:00Z', customer: null },
  { id: 5, updated: '2025-03-04T09:00:00Z', customer: { name: 'без id' } },
];

function ordersHandler(request: FixtureRequest) {
  const since = request.query.get('updated_from');
  const page = Number(request.query.get('page') ?? 1);
  const matching = orders.filter((o) => !since || Date.parse(o.updated) >= Date.parse(since));
  return { body: { orders: matching.slice((page - 1) * 2, page * 2) } };
}

const settings = (url: string) => ({
  base_url: url,
  rate_limit: { requests: 1000, per_seconds: 1 },
  retry: { base_ms: 5, max_attempts: 2 },
  streams: {
    clients: { from: 'deals', records: 'customer', mapping: { id: 'id', name: 'name', emails: 'email' } },
    deals: {
      request: { path: '/orders', query: { updated_from: '{{cursor}}' } },
      records: 'orders',
      paginator: { type: 'page_number', page_param: 'page', page_size: 2 },
      incremental: { field: 'updated', format: 'iso', sorted: true },
      mapping: { id: 'id', created_at: 'updated', client_id: 'customer.id' },
    },
  },
});

/** One stream read as the engine reads it in a run: the window, the work folder and the streams still to come. */
async function readInRun(stream: StreamName, plain: unknown, run: { since: Date | null; until: Date; workDir: string; later: StreamName[]; limit?: number }) {
  const records: CanonicalRecord[] = [];
  const rejected: RejectedInput[] = [];
  const logs: string[] = [];
  const pages = connector.read(stream, { since: run.since, until: run.until }, {
    connectionId: 'shop', settings: typedSettings(connector, plain), state: null, workDir: run.workDir,
    laterStreams: run.later, limit: run.limit, logger: { log: (m) => logs.push(m), warn: (m) => logs.push(m) },
  });
  for await (const page of pages) {
    records.push(...page.records);
    rejected.push(...(page.rejected ?? []));
  }
  return { records, rejected, logs };
}

describe('generic-crm: a stream taken from another stream\'s pages', () => {
  let crm: CrmServer;
  let workDir: string;
  const until = new Date('2025-03-10T00:00:00Z');
  const orderPages = () => crm.requests.filter((r) => r.path === '/orders');

  beforeEach(async () => {
    crm = await startCrmServer(ordersHandler);
    workDir = mkdtempSync(join(tmpdir(), 'generic-crm-from-'));
  });
  afterEach(async () => {
    await crm.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('reads the clients embedded in the deals, then the deals from the same pages: one request per page', async () => {
    const plain = settings(crm.url);
    expect(connector.streams(typedSettings(connector, plain))).toEqual([
      { name: 'clients', incremental: true, sorted: true },
      { name: 'deals', incremental: true, sorted: true },
    ]);
    const clients = await readInRun('clients', plain, { since: null, until, workDir, later: ['deals'] });
    expect(orderPages().map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    // c1 is embedded twice on different pages: each copy carries its deal's time (the engine keeps the last)
    expect(clients.records.map((c) => [c.id, (c as { updated_at: Date }).updated_at.toISOString()])).toEqual([
      ['c1', '2025-03-01T10:00:00.000Z'], ['c2', '2025-03-01T11:00:00.000Z'], ['c1', '2025-03-02T09:00:00.000Z'],
    ]);
    expect(clients.records[2]).toMatchObject({ name: 'Анна Петрова', emails: ['anna@example.com'] });
    expect(clients.rejected).toEqual([
      expect.objectContaining({ id: '', field: 'id', reason: 'the record has no id', ref: 'clients in deals 5 (page 3)' }),
    ]);
    expect(readdirSync(workDir)).toEqual(['deals-pages.jsonl']);

    const deals = await readInRun('deals', plain, { since: null, until, workDir, later: [] });
    expect(orderPages()).toHaveLength(3); // no second fetch
    expect(deals.records.map((d) => [d.id, (d as { client_id: string | null }).client_id])).toEqual([
      ['1', 'c1'], ['2', 'c2'], ['3', 'c1'], ['4', null], ['5', null],
    ]);
    expect(deals.logs.join('\n')).toMatch(/read 5 records in 3 pages \(kept from an earlier stream of this run, not fetched again\)/);
    expect(readdirSync(workDir)).toEqual([]); // nothing left once no later stream needs the pages
  });

  it('leaves an undefined {{cursor}} out on a first run, and sends the window start on the next', async () => {
    const plain = settings(crm.url);
    await readAll(connector, 'deals', plain);
    expect(orderPages()[0].query.has('updated_from')).toBe(false);
    await readAll(connector, 'deals', plain, { since: new Date('2025-03-02T00:00:00Z') });
    expect(orderPages()[3].query.get('updated_from')).toBe('2025-03-02T00:00:00Z');
  });

  it('applies the deals window to the clients, and refetches when the kept pages do not cover the deals window', async () => {
    const plain = settings(crm.url);
    const since = new Date('2025-03-02T00:00:00Z');
    const clients = await readInRun('clients', plain, { since, until, workDir, later: ['deals'] });
    expect(clients.records.map((c) => c.id)).toEqual(['c1']);
    expect(orderPages().map((r) => r.query.get('updated_from'))).toEqual(['2025-03-02T00:00:00Z', '2025-03-02T00:00:00Z']);
    // the deals cursor lags behind (its last run failed): the kept pages start too late, so they are fetched
    const deals = await readInRun('deals', plain, { since: new Date('2025-03-01T00:00:00Z'), until, workDir, later: [] });
    expect(deals.records.map((d) => d.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(orderPages().slice(2).map((r) => r.query.get('updated_from'))).toEqual(['2025-03-01T00:00:00Z', '2025-03-01T00:00:00Z', '2025-03-01T00:00:00Z']);
    expect(existsSync(join(workDir, 'deals-pages.jsonl'))).toBe(false);
  });

  it('keeps nothing from a read stopped early (a preview), so the deals are fetched', async () => {
    const plain = settings(crm.url);
    await readInRun('clients', plain, { since: null, until, workDir, later: ['deals'], limit: 1 });
    expect(readdirSync(workDir)).toEqual([]);
    await readInRun('deals', plain, { since: null, until, workDir, later: [] });
    expect(orderPages().length).toBe(1 + 3);
  });

  it('discover() shows the fields of the embedded records for a `from` stream', async () => {
    const typed = typedSettings(connector, settings(crm.url));
    const fields = await connector.discover!(typed, { connectionId: 'shop', settings: typed, logger: { log: () => {}, warn: () => {} } });
    expect(fields.filter((f) => f.stream === 'clients').map((f) => [f.name, f.example])).toEqual([
      ['id', 'c1'], ['name', 'Анна'], ['email', 'ANNA@example.com'],
    ]);
    expect(fields.filter((f) => f.stream === 'deals').map((f) => f.name)).toEqual(['id', 'updated', 'customer.id', 'customer.name', 'customer.email']);
  });

  it('names a `from` that cannot work', async () => {
    const selfish = settings(crm.url);
    (selfish.streams.deals as Record<string, unknown>).from = 'clients';
    await expect(readAll(connector, 'clients', selfish, { connectionId: 'shop' })).rejects.toThrow(
      'connection shop, stream clients: from deals, which itself takes its records from clients; name clients instead',
    );
    const unknown = { ...settings(crm.url), streams: { clients: { from: 'managers', mapping: { id: 'id' } } } };
    expect(connector.streams(typedSettings(connector, unknown))).toEqual([]);
    await expect(readAll(connector, 'clients', unknown, { connectionId: 'shop' })).rejects.toThrow(
      'connection shop, stream clients: from managers, but stream managers is not defined',
    );
  });
});
