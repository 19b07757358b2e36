import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { ProgressEvent, RunSummary } from '../../src/engine/engine-types';
import type { TrackerClient } from '../../src/tracker/tracker-client';
import { E2eSync } from './e2e-harness';
import { orderDetails } from './sandbox-readback';

/** Every order the service holds, by id: its revenue and status id (the order list, 1,000 a page). */
async function serviceOrders(tracker: TrackerClient): Promise<Map<string, { revenue: number | null; status: string }>> {
  const orders = new Map<string, { revenue: number | null; status: string }>();
  for (let offset = 0; ; offset += 1000) {
    const page = await tracker.orders.list({ limit: 1000, offset });
    for (const order of page.data) orders.set(String(order.id), { revenue: order.revenue ?? null, status: String(order.status?.id) });
    if (page.data.length === 0 || offset + page.data.length >= page.total) return orders;
  }
}

const HEADER = 'id,title,status,created_at,updated_at,price';
/** updated_at spread over February: most rows were updated before the latest one (the cursor an incremental read keeps) */
const row = (i: number, price: number, status = '0') => {
  const day = String(1 + (i % 28)).padStart(2, '0');
  return `D${i},Deal ${i},${status},01.02.2025 10:00,${day}.02.2025 10:00,${price}`;
};

/**
 * Export tools rewrite their file in place (`: > file`, then the new rows). A sync reading it meanwhile used to
 * succeed with the rows before the cut, and record the file's hash as read, so that the next run found the
 * restored file "unchanged" and 77,178 of 100,000 rows never arrived. Now that read fails naming the file, and
 * the next run reads it again: every row ends in the service.
 */
describe('e2e: a 100,000-row CSV truncated and restored during a sync (spreadsheet → engine → sandbox)', () => {
  const ROWS = 100_000;
  let dir: string;
  let file: string;
  let content: string;
  let e2e: E2eSync;
  let first: RunSummary;
  let cutAt: number | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-torn-'));
    file = join(dir, 'deals.csv');
    content = [HEADER, ...Array.from({ length: ROWS }, (_, i) => row(i, 1000 + i))].join('\n') + '\n';
    writeFileSync(file, content);
    e2e = await E2eSync.start({ connectionId: 'torn', connector: 'spreadsheet', settings: { deals: { path: file } } });

    // the first run: once a fifth of the rows is read, the file is cut to nothing, and put back 100 ms later
    const engine = e2e.engine();
    let restored: Promise<void> = Promise.resolve();
    engine.events.on('progress', (event: ProgressEvent) => {
      if (cutAt !== null || event.stream !== 'deals' || event.read < ROWS / 5) return;
      cutAt = event.read;
      writeFileSync(file, ''); // `: > file`
      restored = new Promise((resolve) => setTimeout(() => resolve(writeFileSync(file, content)), 100));
    });
    const { done } = await engine.start('torn', { mode: 'incremental', trigger: 'cli' });
    first = await done;
    await restored;
    await engine.shutdown(1000);
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the run that read the file while it was cut fails, naming the file and that it changed during the read', () => {
    expect(cutAt).not.toBeNull();
    expect(cutAt!).toBeLessThan(ROWS);
    expect({ status: first.status, error: first.error }).toEqual({
      status: 'failed',
      error: expect.stringMatching(/^stream deals: deals\.csv changed while it was read \(.+\); it is not recorded as read, and the next run reads it again/),
    });
    // no torn row was read: nothing rejected
    expect(first.streams.deals?.rejected).toBe(0);
  });

  it('the next run reads the restored file again and every row ends in the service; the run after it finds the file unchanged', async () => {
    expect(readFileSync(file, 'utf8')).toBe(content);
    const sentBefore = first.streams.deals?.sent ?? 0;
    const second = await e2e.run();
    expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
    // what the first run delivered is not sent again
    expect(second.streams.deals).toMatchObject({ read: ROWS, unchanged: sentBefore, sent: ROWS - sentBefore, rejected: 0 });

    const orders = await serviceOrders(e2e.tracker);
    expect(orders.size).toBe(ROWS);
    const wrong = Array.from({ length: ROWS }, (_, i) => i).filter((i) => orders.get(`D${i}`)?.revenue !== 1000 + i);
    expect(wrong).toEqual([]);

    const third = await e2e.run();
    expect(third.streams.deals).toMatchObject({ read: 0, sent: 0 });
    expect(e2e.log()).toContain('deals.csv is unchanged since the last sync');
  });
});

/**
 * Marketers edit their sheets by hand: a price or a status changed without touching updated_at must still reach
 * the service. Every row of a changed file is compared with what the service acknowledged (fingerprints).
 */
describe('e2e: prices and statuses edited without touching updated_at reach the service on the next run', () => {
  const DEALS = 1000;
  let dir: string;
  let file: string;
  let e2e: E2eSync;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-edits-'));
    file = join(dir, 'deals.csv');
    writeFileSync(file, [HEADER, ...Array.from({ length: DEALS }, (_, i) => row(i, 500))].join('\n') + '\n');
    e2e = await E2eSync.start({ connectionId: 'edits', connector: 'spreadsheet', settings: { deals: { path: file } } });
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each round, the edited rows and only they are sent, and the service holds every new price and status', async () => {
    const first = await e2e.run();
    expect(first.streams.deals).toMatchObject({ read: DEALS, sent: DEALS, rejected: 0 });
    const price = Array.from({ length: DEALS }, () => 500);
    const status = Array.from({ length: DEALS }, () => '0');
    for (let round = 1; round <= 3; round++) {
      // a tenth of the prices and a few statuses change; updated_at stays as it was
      const before = price.map((p, i) => row(i, p, status[i]));
      for (let i = round; i < DEALS; i += 10) price[i] = 500 + round * 7;
      for (let i = round * 3; i < DEALS; i += 97) status[i] = String(1 + (round % 2));
      const edited = new Set(before.map((text, i) => i).filter((i) => before[i] !== row(i, price[i], status[i])));
      expect(edited.size).toBeGreaterThan(DEALS / 10);
      writeFileSync(file, [HEADER, ...price.map((p, i) => row(i, p, status[i]))].join('\n') + '\n');
      const run = await e2e.run();
      expect({ round, status: run.status, deals: run.streams.deals }).toMatchObject({
        round, status: 'succeeded', deals: { read: DEALS, sent: edited.size, unchanged: DEALS - edited.size, rejected: 0 },
      });
      const orders = await serviceOrders(e2e.tracker);
      const stale = price.map((p, i) => i).filter((i) => orders.get(`D${i}`)?.revenue !== price[i] || orders.get(`D${i}`)?.status !== status[i]);
      expect({ round, stale }).toEqual({ round, stale: [] });
    }
  });
});

/**
 * What a sheet's rows alone do not tell the service: a paid deal's day (a close date, else the sync's), an amount
 * cleared (null, not left out), a column that stopped feeding its field (the run fails instead of sending every
 * row without it).
 */
describe('e2e: close dates, cleared amounts and a vanished column of a sheet reach the service as meant', () => {
  const HEAD = 'id,title,status,created_at,updated_at,price,closed_at';
  let dir: string;
  let file: string;
  let e2e: E2eSync;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-closing-'));
    file = join(dir, 'deals.csv');
    e2e = await E2eSync.start({ connectionId: 'closing', connector: 'spreadsheet', settings: { deals: { path: file } } });
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('dates a payment by its close date, says which paid deals nothing dates, clears a cleared price, and fails on a vanished price column', async () => {
    const rows = (lampPrice: string, head = HEAD) => [
      head,
      'G-1,Sofa,1,2025-12-31 14:05:00,,100,',
      'G-2,Bed,1,2025-11-30 10:00:00,,200,2025-12-02 15:00:00',
      `G-3,Lamp,0,2025-12-01 10:00:00,,${lampPrice},`,
    ].join('\n') + '\n';
    writeFileSync(file, rows('300'));
    const first = await e2e.run();
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams.deals).toMatchObject({ sent: 3, rejected: 0 });
    expect(first.streams.deals?.notices).toEqual([
      'deals.csv: 1 paid or cancelled deal has no close date (closed_at column) and no status history: the service dates it on receipt ' +
        '(G-1); add a closed_at column with the day each was paid or cancelled',
    ]);
    const paid = await orderDetails(e2e.tracker, ['G-2']);
    expect(paid.get('G-2')?.order.paid_date).toBe('2025-12-02T12:00:00+0000'); // 15:00 Moscow, not the sync's time

    writeFileSync(file, rows(''));
    const cleared = await e2e.run();
    expect(cleared.streams.deals).toMatchObject({ sent: 1, unchanged: 2 });
    expect((await serviceOrders(e2e.tracker)).get('G-3')).toEqual({ revenue: null, status: '0' });

    writeFileSync(file, rows('', HEAD.replace('price', 'Amount')));
    const renamed = await e2e.run();
    expect({ status: renamed.status, error: renamed.error }).toEqual({
      status: 'failed', error: expect.stringMatching(/^stream deals: deals\.csv: no column feeds price any more: at the last read column F \("price"\) did/),
    });
    expect((await serviceOrders(e2e.tracker)).get('G-1')).toEqual({ revenue: 100, status: '1' });
  });
});

/**
 * `incremental: true` skips rows dated before its cursor: a row dated in the future waits (counted and named, not
 * silently), and a row rejected and then fixed without a new updated_at is read again while its rejection is open.
 */
describe('e2e: an incremental sheet names its rows dated in the future, and retries a fixed rejected row', () => {
  const HEAD = 'id,title,status,created_at,updated_at,price';
  let dir: string;
  let file: string;
  let e2e: E2eSync;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-incremental-'));
    file = join(dir, 'deals.csv');
    // a read thread: the first run (no state yet) reads there, and its count and notice cross to the main thread
    e2e = await E2eSync.start({ connectionId: 'incr', connector: 'spreadsheet', settings: { deals: { path: file, incremental: true } }, workers: 1 });
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts deferred_future with a notice naming the row, and sends the row whose bad price was fixed', async () => {
    const rows = (price: string) => [
      HEAD,
      'R-1,Sofa,0,01.01.2026 10:00,01.01.2026 10:00,100',
      `R-2,Bed,0,01.12.2025 10:00,01.12.2025 10:00,${price}`,
      'R-3,Lamp,0,01.01.2026 10:00,30.11.2099 10:00,300',
    ].join('\n') + '\n';
    writeFileSync(file, rows('abc'));
    const first = await e2e.run();
    expect({ status: first.status, error: first.error }).toEqual({ status: 'succeeded', error: null });
    expect(first.streams.deals).toMatchObject({ read: 2, sent: 1, rejected: 1, deferred_future: 1 });
    expect(first.streams.deals?.notices).toEqual([expect.stringMatching(/^deals\.csv: 1 row is dated in the future .*: R-3 \(row 4, updated_at "30\.11\.2099 10:00"\)/)]);

    writeFileSync(file, rows('200')); // R-2's updated_at stays before the cursor (R-1's)
    const second = await e2e.run();
    expect(second.streams.deals).toMatchObject({ sent: 1, rejected: 0, deferred_future: 1 });
    expect((await serviceOrders(e2e.tracker)).get('R-2')).toEqual({ revenue: 200, status: '0' });
  });
});
