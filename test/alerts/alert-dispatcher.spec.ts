import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { AlertDispatcher } from '../../src/alerts/alert-dispatcher';
import { AlertNotice } from '../../src/alerts/alert-notice';
import { AlertConfig } from '../../src/config/alert-config';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { StoreRepositories } from '../../src/store/store-repositories';
import { HttpReceiver } from '../support/alert-receivers';
import { CapturingLogger } from '../support/engine-harness';

const notice = (connection: string): AlertNotice => ({
  event: 'run_failed', connection, run_id: 1, message: `${connection}: run 1 failed`, counters: null, status_url: 'http://x/', at: new Date().toISOString(),
});

/** The dispatcher's queue is bounded: a receiver that is down cannot pile up messages without end. */
describe('alert dispatcher', () => {
  let dir: string;
  let ds: DataSource;
  let store: StoreRepositories;
  const receiver = new HttpReceiver();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'alert-dispatcher-'));
    ds = await createStoreDataSource({ dataDir: dir });
    store = new StoreRepositories(ds);
    await receiver.start();
  });
  afterEach(async () => {
    await receiver.stop();
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('beyond maxPending a message is recorded as failed at once, not queued; stop ends the waits', async () => {
    const alert = Object.assign(new AlertConfig(), { id: 'ops', type: 'webhook', url: `${receiver.url}/hook` });
    const logger = new CapturingLogger();
    let failed = 0;
    const dispatcher = new AlertDispatcher(store.alerts, { logger, scrub: (t) => t, onFailed: () => failed++ }, {
      maxPending: 2, attempts: 10, backoff: { baseMs: 5000, maxMs: 5000, jitter: false },
    });
    receiver.failNext = Array(10).fill(503);
    for (const id of ['a', 'b', 'c', 'd']) dispatcher.send(alert, notice(id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { rows } = await store.alerts.deliveries({}, { limit: 10, offset: 0 });
    const byConnection = Object.fromEntries(rows.map((r) => [r.connection_id, `${r.status} ${r.last_error}`]));
    expect(byConnection).toEqual({ a: 'pending HTTP 503: {"ok":false,"error":"down"}', b: 'pending HTTP 503: {"ok":false,"error":"down"}', c: 'failed too many messages pending', d: 'failed too many messages pending' });
    expect(failed).toBe(2);
    expect(logger.lines.filter((l) => l.includes('messages are still being delivered'))).toHaveLength(2);

    const started = Date.now();
    await dispatcher.stop(50);
    expect(Date.now() - started).toBeLessThan(2000);
    const after = await store.alerts.deliveries({}, { limit: 10, offset: 0 });
    expect(after.rows.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    dispatcher.send(alert, notice('e'));
    expect((await store.alerts.deliveries({}, { limit: 10, offset: 0 })).total).toBe(4); // stopped: nothing new
  });
});
