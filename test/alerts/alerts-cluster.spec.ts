import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { AlertDispatcher } from '../../src/alerts/alert-dispatcher';
import { AlertEvaluator } from '../../src/alerts/alert-evaluator';
import { AlertConfig } from '../../src/config/alert-config';
import { ConnectionConfig } from '../../src/config/config.schema';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { StoreRepositories } from '../../src/store/store-repositories';
import { HttpReceiver } from '../support/alert-receivers';
import { CapturingLogger } from '../support/engine-harness';
import { describePostgres, storeOptionsFor } from '../support/store-drivers';

/** Three daemons' alert evaluators on one PostgreSQL store, each with its own pool: every alert goes out once. */
describePostgres('alerts: several daemons on one store', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const sources: DataSource[] = [];
  const evaluators: AlertEvaluator[] = [];
  const dispatchers: AlertDispatcher[] = [];
  const receiver = new HttpReceiver();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'alerts-cluster-'));
    await receiver.start();
    const store = await storeOptionsFor('postgres', dir);
    cleanup = store.cleanup;
    for (let i = 0; i < 3; i++) sources.push(await createStoreDataSource(store.options));
  });

  afterEach(async () => {
    for (const e of evaluators.splice(0)) await e.stop();
    for (const d of dispatchers.splice(0)) await d.stop(100);
    for (const s of sources.splice(0)) await s.destroy();
    await cleanup();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('no_success_for and its reminders: sent by one daemon of three', async () => {
    const alert = Object.assign(new AlertConfig(), { id: 'ops', type: 'webhook', url: `${receiver.url}/hook`, events: ['no_success_for'], no_success_for: '1h', repeat: '1s' });
    const connection = Object.assign(new ConnectionConfig(), { id: 'crm', connector: 'memory', schedule: '*/5 * * * *' });
    const longAgo = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await new StoreRepositories(sources[0]).connections.upsert({ id: 'crm', connector: 'memory', settings: {}, schedule: connection.schedule!, paused: false, created_at: longAgo, updated_at: longAgo });
    for (const source of sources) {
      const store = new StoreRepositories(source);
      const logger = new CapturingLogger();
      const dispatcher = new AlertDispatcher(store.alerts, { logger, scrub: (t) => t }, { backoff: { baseMs: 20, maxMs: 50, jitter: false } });
      dispatchers.push(dispatcher);
      evaluators.push(new AlertEvaluator([alert], [connection], store, dispatcher, logger, { checkIntervalMs: 60_000, statusUrl: 'http://x/' }));
    }
    // the three start together and check at once
    await Promise.all(evaluators.map((e) => e.check()));
    await Promise.all(dispatchers.map((d) => d.idle()));
    expect(receiver.posts.map((p) => p.body.event)).toEqual(['no_success_for']);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    await Promise.all(evaluators.map((e) => e.check()));
    await Promise.all(evaluators.map((e) => e.check()));
    await Promise.all(dispatchers.map((d) => d.idle()));
    expect(receiver.posts).toHaveLength(2);
    expect(receiver.posts[1].body.message).toMatch(/^Reminder: crm: no successful run yet since/);
  });
});
