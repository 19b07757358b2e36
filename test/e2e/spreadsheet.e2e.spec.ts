import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { RunSummary } from '../../src/engine/engine-types';
import { E2eSync } from './e2e-harness';
import { byId, orderDetails, readServiceContents, ServiceContents } from './sandbox-readback';
import {
  clientView, expectedClientView, expectedManagerView, expectedOrderDetailView, expectedOrderListView, managerView,
  orderDetailView, orderListView, sortedById,
} from './service-shape';
import { dealRows, expected, spreadsheetSettings, writeContactsXlsx, writeDealsCsv } from './spreadsheet-fixture';

/** A 1C-style Windows-1251 CSV of deals and an XLSX of clients and managers, synced into the sandbox. */
describe('e2e: spreadsheet (CP1251 CSV + XLSX) → engine → sandbox', () => {
  let dir: string;
  let dealsFile: string;
  let e2e: E2eSync;
  let first: RunSummary;
  let contents: ServiceContents;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-sheets-'));
    dealsFile = writeDealsCsv(dir);
    const contacts = await writeContactsXlsx(dir);
    e2e = await E2eSync.start({ connectionId: 'sheets', connector: 'spreadsheet', settings: spreadsheetSettings(dealsFile, contacts) });
    first = await e2e.run();
    contents = await readServiceContents(e2e.tracker);
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the run succeeds: every good row sent, every bad row rejected', () => {
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams).toEqual({
      managers: { read: 2, unchanged: 0, sent: 2, rejected: 0, sent_without_visit: 0 },
      clients: { read: 3, unchanged: 0, sent: 3, rejected: 0, sent_without_visit: 0 },
      deals: { read: 7, unchanged: 0, sent: 3, rejected: 4, sent_without_visit: 1 },
    });
    expect(first.counters).toMatchObject({ processed: 3, saved: 3, skipped_by_status: 0, skipped_by_waiting_visit_info: 0 });
  });

  it('bad rows (impossible date, unparseable amount, empty id, duplicate id) name the file row, the id and the column', () => {
    expect(first.rejected.map((r) => ({ stream: r.stream, id: r.external_id, field: r.field, ref: r.ref, source: r.source }))).toEqual(
      expected.rejected.map((r) => ({ stream: 'deals', id: r.id, field: r.field, ref: `deals-1c.csv row ${r.row}`, source: 'connector' })),
    );
    expect(first.rejected[0].reason).toContain('31.02.2025');
    expect(first.rejected[1].reason).toContain('около 900');
  });

  it('every manager arrived from the second sheet, field by field', () => {
    expect(sortedById(contents.managers.map(managerView))).toEqual(sortedById(expected.managers.map(expectedManagerView)));
  });

  it('every client arrived, field by field (date cell and DD.MM.YYYY birth dates, two phones in a cell, custom field)', async () => {
    expect(sortedById(contents.clients.map(clientView))).toEqual(sortedById(expected.clients.map(expectedClientView)));
    const fields = await e2e.clientFields();
    expect(expected.clients.map((c) => [c.id, fields.get(c.id)])).toEqual(expected.clients.map((c) => [c.id, c.custom_fields]));
  });

  it('every deal is an order: Moscow dates in UTC, "1 234,50" as revenue, status_map, visit, client, custom field', () => {
    expect(sortedById(contents.orders.map(orderListView))).toEqual(sortedById(expected.deals.map(expectedOrderListView)));
  });

  it('order info: products with their category path, the status history through status_map, the client', async () => {
    const details = await orderDetails(e2e.tracker, expected.deals.map((d) => d.id));
    const clients = byId(expected.clients, (c) => c.id);
    for (const deal of expected.deals) {
      expect({ deal: deal.id, ...orderDetailView(details.get(deal.id)!) })
        .toEqual({ deal: deal.id, ...expectedOrderDetailView(deal, clients.get(deal.client_id!)) });
    }
  });

  it('a second run over unchanged files sends nothing', async () => {
    const second = await e2e.run();
    expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
    for (const stream of ['managers', 'clients', 'deals'] as const) {
      expect({ stream, sent: second.streams[stream]?.sent }).toEqual({ stream, sent: 0 });
    }
    expect(second.counters.processed).toBe(0);
  });

  it('after one row changes, the next run sends that deal alone and the service shows the new amount', async () => {
    const changed = dealRows.s2.replace('11.03.2025 14:30;12\u00a0500,00', '20.03.2025 10:00;13 000,00');
    writeDealsCsv(dir, Object.values({ ...dealRows, s2: changed }));
    const third = await e2e.run();
    expect({ status: third.status, sent: third.streams.deals?.sent, saved: third.counters.saved }).toEqual({ status: 'succeeded', sent: 1, saved: 1 });
    const s2 = (await readServiceContents(e2e.tracker)).orders.find((o) => o.id === 'S-2')!;
    expect(orderListView(s2)).toEqual(expectedOrderListView({ ...expected.deals[1], price: 13000 }));
  });

  it('a manager removed from the sheet is deleted from the service on the next run', async () => {
    await writeContactsXlsx(dir, ['M1']);
    const fourth = await e2e.run();
    expect({ status: fourth.status, error: fourth.error }).toEqual({ status: 'succeeded', error: null });
    expect((await e2e.tracker.managers.list()).data.map(managerView)).toEqual([expectedManagerView(expected.managers[0])]);
    expect((await readServiceContents(e2e.tracker)).clients).toHaveLength(3);
  });
});

describe('e2e: a sheet status neither status_map nor the project knows → the service skips it → a rejected record, retried', () => {
  let dir: string;
  let e2e: E2eSync;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-status-'));
    const file = join(dir, 'deals.csv');
    writeFileSync(file, 'id,title,status,created_at,closed_at,price\nP-1,Диван,Оплачено,10.03.2025,12.03.2025,100\nP-2,Пуф,Пуфик,11.03.2025,,50\n');
    e2e = await E2eSync.start({ connectionId: 'pouf', connector: 'spreadsheet', settings: { deals: { path: file, status_map: { Оплачено: '1' } } } });
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the deal, the status and the fix; once the project has the status, `retry <run>` delivers it', async () => {
    const first = await e2e.run();
    expect(first.counters.skipped_by_status).toBe(1);
    expect(first.streams.deals).toMatchObject({ read: 2, sent: 1, rejected: 1 });
    expect(first.rejected.map((r) => ({ id: r.external_id, field: r.field, source: r.source }))).toEqual([{ id: 'P-2', field: 'status', source: 'service' }]);
    expect(first.rejected[0].reason).toMatch(new RegExp(
      `^the service skipped it \\(skipped_by_status\\): status "Пуфик" is not a status of project ${e2e.sandbox.projectId} \\(its statuses: 0 \\(In work\\), 1 \\(Paid\\), .*\\); `
        + `add it to the project or map it with status_map, then retry the run \\(cli retry ${first.runId}\\)$`,
    ));
    await e2e.tracker.orders.setStatuses([...await e2e.tracker.orders.listStatuses(), { id: 'Пуфик', name: 'Пуфик', type: 'progress' }]);
    // the file is unchanged: a scheduled run reads nothing, the deal waits for the retry
    expect((await e2e.run()).streams.deals?.sent ?? 0).toBe(0);
    const retry = await e2e.retry(first.runId);
    expect({ status: retry.status, deals: retry.streams.deals, saved: retry.counters.saved }).toEqual({
      status: 'succeeded', deals: { read: 1, unchanged: 0, sent: 1, rejected: 0, sent_without_visit: 1 }, saved: 1,
    });
    expect((await readServiceContents(e2e.tracker)).orders.map((o) => [o.id, o.status.id]).sort()).toEqual([['P-1', '1'], ['P-2', 'Пуфик']]);
    expect(await e2e.store.query('SELECT external_id FROM open_rejection')).toEqual([]); // settled
  });
});
