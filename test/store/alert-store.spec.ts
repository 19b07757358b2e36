import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { AlertKey } from '../../src/store/repositories/alert.store';
import { StoreRepositories } from '../../src/store/store-repositories';
import { describeStores, storeOptionsFor } from '../support/store-drivers';

const KEY: AlertKey = { alertId: 'ops', connectionId: 'crm', event: 'run_failed' };
const what = { runId: 7, message: 'crm: run 7 failed' };

/** Each send of an alert is claimed on its state row: one winner, on either driver and across two connections to one store. */
describeStores('alert store', (driver) => {
  let dir: string;
  let ds: DataSource;
  let cleanup: () => Promise<void>;
  let store: StoreRepositories;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'alert-store-'));
    const options = await storeOptionsFor(driver, dir);
    cleanup = options.cleanup;
    ds = await createStoreDataSource(options.options);
    store = new StoreRepositories(ds);
  });
  afterEach(async () => {
    await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a condition is alerted once, reminded after repeat, and ends once', async () => {
    expect(await store.alerts.raise(KEY, what, 60_000)).toBe('first');
    expect(await store.alerts.raise(KEY, what, 60_000)).toBeNull();
    expect(await store.alerts.remind(KEY, 60_000)).toBe(false);
    const state = await store.alerts.state(KEY);
    expect(state).toMatchObject({ active: true, run_id: 7, message: 'crm: run 7 failed' });
    expect(await store.alerts.raise(KEY, { runId: 8, message: 'again' }, 0)).toBe('reminder');
    expect(await store.alerts.remind(KEY, 0)).toBe(true);
    expect((await store.alerts.active()).map((s) => s.event)).toEqual(['run_failed']);
    expect(await store.alerts.end(KEY)).toBe(true);
    expect(await store.alerts.end(KEY)).toBe(false);
    expect(await store.alerts.remind(KEY, 0)).toBe(false);
    expect(await store.alerts.active()).toEqual([]);
    expect(await store.alerts.raise(KEY, what, 60_000)).toBe('first');
  });

  it('concurrent claims of one condition: exactly one wins', async () => {
    const second = new StoreRepositories(ds);
    const results = await Promise.all([store.alerts.raise(KEY, what, 60_000), second.alerts.raise(KEY, what, 60_000), store.alerts.raise(KEY, what, 60_000)]);
    expect(results.filter((r) => r === 'first')).toHaveLength(1);
    expect(results.filter((r) => r !== 'first')).toEqual([null, null]);
    const ends = await Promise.all([store.alerts.end(KEY), second.alerts.end(KEY)]);
    expect(ends.filter(Boolean)).toHaveLength(1);
  });

  it('deliveries: added pending, updated, paged newest first', async () => {
    const a = await store.alerts.addDelivery({ alert_id: 'ops', type: 'webhook', event: 'run_failed', connection_id: 'crm', run_id: 7, reminder: false, message: 'm1' });
    const b = await store.alerts.addDelivery({ alert_id: 'ops', type: 'webhook', event: 'recovered', connection_id: 'crm', run_id: 8, reminder: false, message: 'm2' });
    await store.alerts.addDelivery({ alert_id: 'other', type: 'slack', event: 'test', connection_id: null, run_id: null, reminder: false, message: 'm3' });
    expect(a).toMatchObject({ status: 'pending', attempts: 0 });
    await store.alerts.updateDelivery(a.id, { status: 'sent', attempts: 2, last_error: null, sent_at: '2026-01-01T00:00:00.000Z' });
    const page = await store.alerts.deliveries({ alertId: 'ops' }, { limit: 10, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(page.rows[1]).toMatchObject({ status: 'sent', attempts: 2, sent_at: '2026-01-01T00:00:00.000Z', reminder: false });
    expect((await store.alerts.deliveries({}, { limit: 1, offset: 1 })).rows.map((r) => r.id)).toEqual([b.id]);
    // a daemon stopped mid-delivery: its pending rows are closed later, the delivered one kept
    expect(await store.alerts.abandonPending(new Date(Date.now() + 1000).toISOString(), 'the daemon stopped')).toBe(2);
    const closed = await store.alerts.deliveries({}, { limit: 10, offset: 0 });
    expect(closed.rows.map((r) => `${r.status} ${r.last_error}`)).toEqual(['failed the daemon stopped', 'failed the daemon stopped', 'sent null']);
  });
});
