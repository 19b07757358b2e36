/**
 * Connectors' rotating secrets in the store (ConnectorSecretStore): compare-and-set, one lock holder at a time
 * across processes (two connections to one store), a dead holder's lock taken over at once, and the generic
 * CRM's OAuth2 token file of an older installation moved into the store on first use. SQLite, and PostgreSQL
 * when configured.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import connector from '../../connectors/generic-crm';
import { machineKey } from '../../src/store/holder-id';
import { ConnectorSecretStore } from '../../src/store/repositories/connector-secret.store';
import { createStoreDataSource, StoreOptions } from '../../src/store/store-data-source';
import { StoreRepositories } from '../../src/store/store-repositories';
import { startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { readAll } from '../connectors/read-helper';
import { customSettings } from '../connectors/generic-crm/custom-source';
import { describeStores, storeOptionsFor } from '../support/store-drivers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeStores('connector secrets', (driver) => {
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  const open: DataSource[] = [];

  async function process(): Promise<ConnectorSecretStore> {
    const ds = await createStoreDataSource(options);
    open.push(ds);
    return new StoreRepositories(ds).connectorSecrets;
  }

  beforeEach(async () => {
    dir = fs.mkdtempSync(join(tmpdir(), 'secrets-test-'));
    ({ options, cleanup } = await storeOptionsFor(driver, join(dir, 'data')));
  });
  afterEach(async () => {
    for (const ds of open.splice(0)) await ds.destroy();
    await cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes by compare-and-set: the second writer of the same old value loses', async () => {
    const a = (await process()).forConnector('generic-crm');
    const b = (await process()).forConnector('generic-crm');
    expect(await a.get('k')).toBeNull();
    expect(await a.compareAndSet('k', null, 'v1')).toBe(true);
    expect(await b.compareAndSet('k', null, 'other')).toBe(false);
    expect(await b.compareAndSet('k', 'v1', 'v2')).toBe(true);
    expect(await a.compareAndSet('k', 'v1', 'v3')).toBe(false);
    expect(await a.get('k')).toBe('v2');
    // another connector's secret of the same key is another secret
    expect(await (await process()).forConnector('other').get('k')).toBeNull();
  });

  it('lets one holder at a time run under the lock, across processes', async () => {
    const stores = [await process(), await process()];
    const inside: string[] = [];
    let overlap = false;
    let holding = 0;
    await Promise.all(
      [0, 1, 0, 1].map((n, i) =>
        stores[n].forConnector('generic-crm').withLock('k', async () => {
          if (++holding > 1) overlap = true;
          inside.push(`p${n}-${i}`);
          await sleep(150);
          holding--;
        }),
      ),
    );
    expect(overlap).toBe(false);
    expect(inside).toHaveLength(4);
  });

  it("takes over at once the lock of a process that died holding it", async () => {
    const store = await process();
    const dead = spawnSync(globalThis.process.execPath, ['-e', '0']).pid!; // a pid that is gone
    const ghost = store.forConnector('generic-crm', { holder: `${machineKey()}:${dead}:ghost` });
    void ghost.withLock('k', () => new Promise(() => undefined)); // dies holding it: never released
    await sleep(200);
    const started = Date.now();
    expect(await (await process()).forConnector('generic-crm').withLock('k', async () => 'mine')).toBe('mine');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('waits for a live holder, and takes the lock when it expires', async () => {
    const store = await process();
    const slow = store.forConnector('generic-crm', { holder: 'another-machine:1:x', lockTtlMs: 600 });
    void slow.withLock('k', () => new Promise(() => undefined));
    await sleep(100);
    const started = Date.now();
    await (await process()).forConnector('generic-crm', { lockWaitMs: 5_000 }).withLock('k', async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it("moves an older installation's OAuth2 token file into the store on first use", async () => {
    const grants: string[] = [];
    const crm = await startCrmServer((r) => {
      if (r.path === '/oauth/token') {
        grants.push(r.body.refresh_token);
        return { body: { access_token: `at-${grants.length}`, refresh_token: `rt-${grants.length + 10}`, expires_in: 3600 } };
      }
      return r.headers.authorization === 'Bearer at-from-file' || r.headers.authorization === 'Bearer at-1'
        ? { body: { items: [{ id: 1, created: '2025-01-01T00:00:00Z' }] } }
        : { status: 401, body: { error: 'invalid_token' } };
    });
    try {
      const auth = { type: 'oauth2', token_url: `${crm.url}/oauth/token`, client_id: 'cid', client_secret: 's3cret', refresh_token: 'rt-configured' };
      const workDir = join(dir, 'work');
      fs.mkdirSync(workDir, { recursive: true });
      const key = `${crm.url}/oauth/token|cid|rt-configured`;
      const file = join(workDir, 'oauth2-token.json');
      fs.writeFileSync(file, JSON.stringify({ access_token: 'at-from-file', expires_at: Date.now() + 3_600_000, refresh_token: 'rt-rotated-7', key }));
      const secrets = (await process()).forConnector('generic-crm');
      const settings = customSettings(crm.url, {}, { auth });
      const read = await readAll(connector, 'deals', settings, { connectionId: 'crm', workDir, secrets });
      expect(read.records).toHaveLength(1);
      expect(grants).toEqual([]); // the file's access token was still good
      expect(fs.existsSync(file)).toBe(false);

      // another process (nothing cached) finds it in the store; once stale, it refreshes from the rotated token
      const stored = (await process()).forConnector('generic-crm');
      const [row] = await open[1].query('SELECT secret_key, value FROM connector_secret');
      expect(JSON.parse(row.value)).toMatchObject({ access_token: 'at-from-file', refresh_token: 'rt-rotated-7' });
      await open[1].query(`UPDATE connector_secret SET value = '${JSON.stringify({ ...JSON.parse(row.value), expires_at: 1 })}'`);
      await readAll(connector, 'deals', settings, { connectionId: 'crm', workDir, secrets: stored });
      expect(grants).toEqual(['rt-rotated-7']);
      const [after] = await open[1].query('SELECT value FROM connector_secret');
      expect(JSON.parse(after.value)).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-11' });
    } finally {
      await crm.close();
    }
  });
});
