import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { createStoreDataSource, openStore, storeDataSourceOptions, StoreOptions } from '../../src/store/store-data-source';
import { STORE_MIGRATIONS } from '../../src/store/store-entities';
import { StoreRepositories } from '../../src/store/store-repositories';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

const KEY = { alertId: 'ops', connectionId: 'crm', event: 'run_failed' };

/** A claim is not a delivery (alert_state.claimed_at, retry_at, delivery_failures, last_error), on either driver. */
describeStores('store: alert delivery state', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  let ds: DataSource | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'alert-delivery-state-'));
    ({ options, cleanup } = await storeOptionsFor(driver, dir));
  });
  afterEach(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('upgrades a store of active conditions: their last send stays claimed (no reminder before repeat)', async () => {
    const before = STORE_MIGRATIONS.filter((m) => m.name !== 'AlertDeliveryState1765200000000');
    const old = await openStore({ ...storeDataSourceOptions(options), migrations: before });
    const sentAt = new Date(Date.now() - 60_000).toISOString();
    await sql(old, "INSERT INTO alert_state (alert_id, connection_id, event, active, first_at, last_sent_at, ended_at, run_id, message) VALUES ('ops', 'crm', 'run_failed', ?, ?, ?, NULL, 7, 'crm: run 7 failed')", [true, sentAt, sentAt]);
    await old.destroy();

    ds = await createStoreDataSource(options);
    const alerts = new StoreRepositories(ds).alerts;
    expect(await alerts.state(KEY)).toMatchObject({ active: true, last_sent_at: sentAt, claimed_at: sentAt, retry_at: null, delivery_failures: 0, last_error: null });
    expect(await alerts.remind(KEY, 3_600_000)).toBe(false);
    expect(await alerts.remind(KEY, 30_000)).toBe(true);
  });

  it('a failed delivery is claimable again after its backoff, not after repeat; a delivered one counts as sent', async () => {
    ds = await createStoreDataSource(options);
    const alerts = new StoreRepositories(ds).alerts;
    expect(await alerts.raise(KEY, { runId: 7, message: 'm' }, 3_600_000)).toBe('first');
    expect(await alerts.state(KEY)).toMatchObject({ active: true, last_sent_at: null, claimed_at: expect.any(String) });
    const failed = await alerts.deliveryFailed(KEY, 'HTTP 503', (n) => (n === 1 ? 0 : 60_000));
    expect(failed).toMatchObject({ delivery_failures: 1, last_error: 'HTTP 503', last_sent_at: null });
    expect(await alerts.remind(KEY, 3_600_000)).toBe(true); // retry_at has come (a backoff of 0)
    expect(await alerts.remind(KEY, 3_600_000)).toBe(false); // claimed: once
    await alerts.deliveryFailed(KEY, 'HTTP 503', (n) => (n === 1 ? 0 : 60_000));
    expect(await alerts.state(KEY)).toMatchObject({ delivery_failures: 2 });
    expect(await alerts.remind(KEY, 3_600_000)).toBe(false); // 60 s to wait
    await alerts.delivered(KEY, '2026-11-30T00:00:00.000Z');
    expect(await alerts.state(KEY)).toMatchObject({ last_sent_at: '2026-11-30T00:00:00.000Z', delivery_failures: 0, retry_at: null, last_error: null });
    expect(await alerts.remind(KEY, 3_600_000)).toBe(false);

    // a recovered whose delivery failed: due again on the ended condition, claimed once
    expect(await alerts.end(KEY)).toBe(true);
    await alerts.deliveryFailed(KEY, 'HTTP 502', () => 0);
    expect((await alerts.recoveriesDue()).map((s) => s.event)).toEqual(['run_failed']);
    expect(await alerts.claimRecovery(KEY)).toBe(true);
    expect(await alerts.claimRecovery(KEY)).toBe(false);
    expect(await alerts.recoveriesDue()).toEqual([]);
  });
});
