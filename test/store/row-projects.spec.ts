import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { OpenRejectionStore } from '../../src/store/repositories/open-rejection.store';
import { createStoreDataSource, openStore, storeDataSourceOptions, StoreOptions } from '../../src/store/store-data-source';
import { STORE_MIGRATIONS } from '../../src/store/store-entities';
import { StoreRepositories } from '../../src/store/store-repositories';
import { describeStores, sql, storeOptionsFor } from '../support/store-drivers';

const T = '2026-11-20T10:00:00.000Z';
/** `crm` fed beta, then moved to acme; `sheet` has always been acme's */
const NOW = new Map([['acme', ['crm', 'sheet']]]);

/**
 * Each run, webhook call, alert condition and delivery says which project it was made for (RowProjects), and a
 * reader asks for a connection's rows in the project it feeds now: a connection id moved from another project brings
 * none of that project's history; a row from before the column counts as the connection's project of the moment.
 */
describeStores('store: the project of each row', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  let ds: DataSource | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'row-projects-'));
    ({ options, cleanup } = await storeOptionsFor(driver, dir));
  });
  afterEach(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('upgrades a store with history: its rows have no project and count as their connection\'s; new rows are stamped', async () => {
    const old = await openStore({ ...storeDataSourceOptions(options), migrations: STORE_MIGRATIONS.filter((m) => m.name !== 'RowProjects1765300000000') });
    await sql(old, "INSERT INTO run (connection_id, mode, since, trigger, holder, started_at, finished_at, status, streams, error) VALUES ('crm', 'incremental', NULL, 'cli', 'h', ?, ?, 'succeeded', '{}', NULL)", [T, T]);
    await sql(old, "INSERT INTO webhook_call (connection_id, last_call_at, last_outcome, last_accepted_at) VALUES ('crm', ?, 'accepted', ?)", [T, T]);
    await sql(old, "INSERT INTO alert_state (alert_id, connection_id, event, active, run_id, message) VALUES ('ops', 'crm', 'run_failed', ?, 1, 'm')", [true]);
    await old.destroy();

    ds = await createStoreDataSource(options);
    const store = new StoreRepositories(ds);
    expect((await store.runs.get(1))?.project).toBeNull();
    expect((await store.webhookCalls.list())[0].project).toBeNull();
    expect((await store.alerts.active())[0].project).toBeNull();
    // the run from before counts as crm's project of now, whichever that is
    expect((await store.runs.page({ projects: NOW }, { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual([1]);
    expect((await store.runs.create({ connectionId: 'crm', mode: 'full', since: null, trigger: 'cli', holder: 'h', project: 'beta' })).project).toBe('beta');
  });

  it('runs, open rejections and alert deliveries of a connection are read in the project it feeds now', async () => {
    ds = await createStoreDataSource(options);
    const store = new StoreRepositories(ds);
    const run = (connectionId: string, project: string) => store.runs.create({ connectionId, mode: 'incremental', since: null, trigger: 'cli', holder: 'h', project });
    const beta1 = await run('crm', 'beta');
    const beta2 = await run('crm', 'beta');
    const sheet = await run('sheet', 'acme');
    const page = async (filter: Parameters<typeof store.runs.page>[0]) => (await store.runs.page(filter, { limit: 10, offset: 0 })).rows.map((r) => r.id);

    // crm moved to acme and has not run there yet: acme sees none of beta's runs, beta keeps its own
    expect(await page({ projects: NOW })).toEqual([sheet.id]);
    expect(await page({ connectionId: 'crm', projects: NOW })).toEqual([]);
    expect(await page({ connectionId: 'crm', projects: new Map([['beta', ['crm']]]) })).toEqual([beta2.id, beta1.id]);
    expect(await page({ connectionId: 'crm' })).toEqual([beta2.id, beta1.id]); // no projects asked: everything (the full admin token)
    expect(await store.runs.latestOf('crm', { projects: NOW })).toBeNull();
    expect((await store.runs.latestOfEach(['crm', 'sheet'], { projects: NOW })).map((r) => r.id)).toEqual([sheet.id]);
    const acme = await run('crm', 'acme');
    expect(await page({ projects: NOW })).toEqual([acme.id, sheet.id]);
    expect((await store.runs.latestOfEach(['crm', 'sheet'], { projects: NOW })).map((r) => r.id).sort()).toEqual([acme.id, sheet.id].sort());
    expect(await page({ projects: new Map() })).toEqual([]);

    // open rejections are their last run's: beta's excerpt is not acme's to see
    const rejection = (runId: number, id: string) => ({
      run_id: runId, connection_id: 'crm', stream: 'deals', external_id: id, field: 'price', reason: 'not a number', ref: null,
      excerpt: `${id}: Jane Doe <jane@beta.example>`, source: 'check' as const, fingerprint: null,
    });
    await store.writer.transaction((m) => OpenRejectionStore.record(m, beta2.id, [rejection(beta2.id, 'd1')], T));
    await store.writer.transaction((m) => OpenRejectionStore.record(m, acme.id, [rejection(acme.id, 'd2')], T));
    const open = new OpenRejectionStore(ds);
    const keys = async (project?: string) => (await open.pageOf('crm', undefined, { limit: 10, offset: 0 }, project)).rows.map((r) => r.record_key);
    expect([await keys('acme'), await keys('beta'), await keys()]).toEqual([['id:d2'], ['id:d1'], ['id:d1', 'id:d2']]);
    expect(await open.countsOf(['crm', 'sheet'], NOW)).toEqual(new Map([['crm', 1]]));

    // an alert's condition and messages likewise
    await store.alerts.raise({ alertId: 'ops', connectionId: 'crm', event: 'run_failed' }, { runId: beta2.id, message: 'm', project: 'beta' }, 60_000);
    expect((await store.alerts.active())[0].project).toBe('beta');
    for (const project of ['beta', 'acme', null]) {
      await store.alerts.addDelivery({ alert_id: 'ops', type: 'webhook', event: 'run_failed', connection_id: 'crm', run_id: null, reminder: false, message: `of ${project}`, project });
    }
    const messages = async (projects?: ReadonlyMap<string, readonly string[]>) => (await store.alerts.deliveries({ projects }, { limit: 10, offset: 0 })).rows.map((d) => d.message);
    expect(await messages(NOW)).toEqual(['of null', 'of acme']);
    expect(await messages()).toEqual(['of null', 'of acme', 'of beta']);
  });
});
