import { join } from 'path';
import type { Deal } from '../../src/connectors/canonical';
import type { RunSummary } from '../../src/engine/engine-types';
import { DEFAULT_ORDER_STATUSES } from '../../src/sandbox/projects/default-statuses';
import { demoClients, demoDeals, DemoDealRow, demoManagers } from './demo-sheet-oracle';
import { E2eSync } from './e2e-harness';
import { byId, orderDetails, readServiceContents, ServiceContents } from './sandbox-readback';
import {
  clientView, expectedClientView, expectedManagerView, expectedOrderDetailView, expectedOrderListView, managerView,
  orderDetailView, orderListView, sortedById,
} from './service-shape';

/**
 * The demo connection of config/tracker-sync.yaml, end to end: the bundled export (10 managers, 300 clients,
 * 1,000 deals; Windows-1251, ';', DD.MM.YYYY, '1 234,50') into a sandbox with the demo seed. Its deliberate
 * bad rows must end as rejected records (impossible date, bad price, empty id, duplicate id, a comment over
 * 1000 symbols; a status the project does not know, which the service skips) or in the service's skip counters (a
 * visit it does not know, a status it does not know).
 */
const DEMO = join(__dirname, '..', '..', 'config', 'demo');
const STATUS_MAP = { new: '0', in_work: '0', '142': '1', '143': '2' }; // as in config/tracker-sync.yaml
const KNOWN_STATUSES = new Set(DEFAULT_ORDER_STATUSES.map((s) => s.id));
const knownVisit = (id: string | null | undefined) => !id || (Number(id) >= 1000001 && Number(id) <= 1002000);
const tooLongField = (deal: Deal) => Object.values(deal.custom_fields ?? {}).some((v) => v !== null && [...v].length > 1000);

describe('e2e: the bundled demo export (spreadsheet) → engine → sandbox', () => {
  let e2e: E2eSync;
  let first: RunSummary;
  let contents: ServiceContents;
  const managers = demoManagers(join(DEMO, 'managers.csv'));
  const clients = demoClients(join(DEMO, 'clients.csv'));
  const rows = demoDeals(join(DEMO, 'deals.csv'), STATUS_MAP);
  /** rows the first run reads: a row updated after the run started waits for the next run (the signpost) */
  let inWindow: DemoDealRow[];
  let mapped: Deal[];
  let saved: Deal[];

  beforeAll(async () => {
    e2e = await E2eSync.start({
      connectionId: 'demo-sheet', connector: 'spreadsheet',
      settings: {
        deals: { path: join(DEMO, 'deals.csv'), status_map: STATUS_MAP },
        clients: { path: join(DEMO, 'clients.csv') },
        managers: { path: join(DEMO, 'managers.csv') },
      },
    });
    first = await e2e.run();
    contents = await readServiceContents(e2e.tracker);
    const until = new Date(first.startedAt).getTime();
    inWindow = rows.filter((r) => !r.deal || (r.deal.updated_at ?? r.deal.created_at).getTime() <= until);
    mapped = inWindow.map((r) => r.deal).filter((d): d is Deal => d !== null);
    saved = mapped.filter((d) => !tooLongField(d) && KNOWN_STATUSES.has(d.status!) && knownVisit(d.visit_id));
  });
  afterAll(() => e2e?.stop());

  it('the oracle sees the deliberate problems of the demo file', () => {
    expect(rows).toHaveLength(1000);
    expect(rows.filter((r) => !r.deal).map((r) => r.problem!.field)).toEqual(['created_at', 'price', 'id', 'id']);
    expect(mapped.filter(tooLongField)).toHaveLength(1);
    expect(mapped.filter((d) => !KNOWN_STATUSES.has(d.status!)).map((d) => d.status)).toEqual(['on_hold']);
    expect(mapped.filter((d) => !knownVisit(d.visit_id)).map((d) => d.visit_id)).toEqual(['9999999']);
  });

  it('the run succeeds and counts what the file holds', () => {
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    // our checks' and the service's: a deal whose status the project lacks is skipped and kept as rejected
    const rejected = inWindow.length - mapped.length + mapped.filter(tooLongField).length + mapped.filter((d) => !tooLongField(d) && !KNOWN_STATUSES.has(d.status!)).length;
    expect(first.streams).toEqual({
      managers: { read: 10, unchanged: 0, sent: 10, rejected: 0, sent_without_visit: 0 },
      clients: { read: 300, unchanged: 0, sent: 300, rejected: 0, sent_without_visit: 0 },
      deals: { read: inWindow.length, unchanged: 0, sent: inWindow.length - rejected, rejected, sent_without_visit: 0 },
    });
  });

  it('bad rows are rejected records naming the file row, the id and the column, a status the project lacks its status; the rest synced', () => {
    const byConnector = inWindow.filter((r) => !r.deal).map((r) => ({
      stream: 'deals', external_id: r.id, field: r.problem!.field, ref: `deals.csv row ${r.row}`, source: 'connector', reason: expect.stringMatching(r.problem!.reason),
    }));
    const byChecks = mapped.filter(tooLongField).map((d) => ({
      stream: 'deals', external_id: d.id, field: 'fields.Комментарий', ref: `deals.csv row ${rows.find((r) => r.id === d.id)!.row}`,
      source: 'check', reason: expect.stringMatching(/symbols, at most 1000 allowed/),
    }));
    const byService = mapped.filter((d) => !tooLongField(d) && !KNOWN_STATUSES.has(d.status!)).map((d) => ({
      stream: 'deals', external_id: d.id, field: 'status', ref: null, source: 'service',
      reason: expect.stringMatching(`^the service skipped it \\(skipped_by_status\\): status "${d.status}" is not a status of project 1 \\(its statuses: 0 \\(In work\\), `),
    }));
    const rejected = first.rejected.map((r) => ({ stream: r.stream, external_id: r.external_id, field: r.field, ref: r.ref, source: r.source, reason: r.reason }));
    expect(rejected).toEqual([...byConnector, ...byChecks, ...byService]);
    expect(first.rejectedCount).toBe(byConnector.length + byChecks.length + byService.length);
  });

  it("the service's counters: an unknown status and an unknown visit are skipped, everything else saved", () => {
    const sent = mapped.filter((d) => !tooLongField(d));
    expect(first.counters).toEqual({
      processed: sent.length,
      uploaded: saved.length,
      saved: saved.length,
      skipped_by_status: sent.filter((d) => !KNOWN_STATUSES.has(d.status!)).length,
      skipped_by_waiting_visit_info: sent.filter((d) => !knownVisit(d.visit_id)).length,
      skipped_by_internal_error: 0,
      skipped_because_not_changed: 0,
      skipped_by_invalid_format: 0,
      skipped_fields_by_invalid_format: 0,
    });
  });

  it('every manager arrived, field by field', () => {
    expect(sortedById(contents.managers.map(managerView))).toEqual(sortedById(managers.map(expectedManagerView)));
  });

  it('every client arrived, field by field (birth date as YYYY-MM-DD, several phones, the Город column)', async () => {
    expect(sortedById(contents.clients.map(clientView))).toEqual(sortedById(clients.map(expectedClientView)));
    const fields = await e2e.clientFields();
    expect(clients.filter((c) => JSON.stringify(fields.get(c.id)) !== JSON.stringify(c.custom_fields)).map((c) => [c.id, fields.get(c.id)])).toEqual([]);
  });

  it('every saved deal is an order: UTC dates, whole-number revenue and cost, status, visit, client, custom fields', () => {
    expect(contents.orders).toHaveLength(saved.length);
    expect(sortedById(contents.orders.map(orderListView))).toEqual(sortedById(saved.map(expectedOrderListView)));
  });

  it('order info of a sample of deals: products with categories, the status history, the linked client', async () => {
    const sample = saved.filter((_, i) => i % 25 === 0);
    const details = await orderDetails(e2e.tracker, sample.map((d) => d.id));
    const clientById = byId(clients, (c) => c.id);
    for (const deal of sample) {
      expect({ deal: deal.id, ...orderDetailView(details.get(deal.id)!) })
        .toEqual({ deal: deal.id, ...expectedOrderDetailView(deal, clientById.get(deal.client_id!)) });
    }
  });

  it('a second run sends nothing', async () => {
    const second = await e2e.run();
    expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
    for (const stream of ['managers', 'clients', 'deals'] as const) {
      expect({ stream, sent: second.streams[stream]?.sent }).toEqual({ stream, sent: 0 });
    }
    expect(second.counters.processed).toBe(0);
    expect((await readServiceContents(e2e.tracker)).orders).toHaveLength(saved.length);
  });
});
