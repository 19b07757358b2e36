/**
 * Cluster mode: a rotating OAuth2 refresh token is refreshed under a Redis lock (SET NX PX with a fencing value,
 * released by compare-and-delete), so two processes whose tokens are stale at once refresh it once: the second
 * waits for the lock, then takes the first one's result from the store. Real parts: two node processes on one
 * SQLite store, a Redis server, a loopback token endpoint whose refresh tokens are single-use (as amoCRM's).
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { startRedis, RedisServer } from '../../bench/redis-server';
import { ROOT } from '../support/node-entry';
import { buildIfStale } from './support/processes';

const dist = (file: string) => JSON.stringify(join(ROOT, 'dist', file));

/** One process: the store, the Redis lock on its secrets, and an OAuth2 authenticator that needs a token now. */
const WORKER = `
require(${dist('src/connectors/serve-contract.js')}); // first: the connector's code imports tracker-sync/connector
const { createStoreDataSource } = require(${dist('src/store/store-data-source.js')});
const { StoreRepositories } = require(${dist('src/store/store-repositories.js')});
const { RedisLock } = require(${dist('src/cluster/redis-lock.js')});
const { createRedis } = require(${dist('src/redis/redis-connection.js')});
const { OAuth2Auth } = require(${dist('connectors/generic-crm/auth/oauth2-auth.js')});
const { Redactor } = require(${dist('connectors/generic-crm/http/redactor.js')});
const [dataDir, redisUrl, tokenUrl] = process.argv.slice(1);
(async () => {
  const ds = await createStoreDataSource({ dataDir });
  const redis = createRedis(redisUrl);
  const stores = new StoreRepositories(ds);
  stores.connectorSecrets.useLock(new RedisLock(redis));
  const auth = new OAuth2Auth({ type: 'oauth2', client_id: 'c', client_secret: 'lock-test-secret', refresh_token: 'rt-0' }, tokenUrl, new Redactor(), null, stores.connectorSecrets.forConnector('generic-crm'));
  const request = { headers: {} };
  await auth.apply(request);
  process.stdout.write(request.headers.Authorization);
  await redis.quit();
  await ds.destroy();
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe('cluster mode: an OAuth2 refresh takes a Redis lock', () => {
  jest.setTimeout(60_000);
  let redis: RedisServer;
  let dir: string;
  let server: http.Server;
  let tokenUrl: string;
  let refreshToken = 'rt-0';
  const refreshes: string[] = [];
  const voided: string[] = [];
  const locksSeen: string[][] = [];

  beforeAll(async () => {
    buildIfStale();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'oauth2-redis-lock-'));
    const probe = new Redis(redis.url);
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const presented = new URLSearchParams(Buffer.concat(chunks).toString()).get('refresh_token') ?? '';
        if (presented !== refreshToken) {
          voided.push(presented);
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        refreshes.push(presented);
        locksSeen.push(await probe.keys('tracker-sync:lock:*'));
        await new Promise((r) => setTimeout(r, 800)); // long enough for the other process to ask meanwhile
        refreshToken = `rt-${refreshes.length}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `at-${refreshes.length}`, refresh_token: refreshToken, expires_in: 3600 }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
    server.on('close', () => void probe.quit());
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function worker(): Promise<string> {
    return new Promise((resolve, reject) =>
      execFile(process.execPath, ['-e', WORKER, dir, redis.url, tokenUrl], { timeout: 40_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
  }

  it('two processes refresh once, both use the new token, and no voided token is presented', async () => {
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(refreshes).toEqual(['rt-0']);
    expect(voided).toEqual([]);
    expect([a, b]).toEqual(['Bearer at-1', 'Bearer at-1']);
    // the lock was Redis's while the refresh was in flight, and is released after
    expect(locksSeen).toEqual([[expect.stringMatching(/^tracker-sync:lock:connector generic-crm: oauth2:/)]]);
    const probe = new Redis(redis.url);
    expect(await probe.keys('tracker-sync:lock:*')).toEqual([]);
    await probe.quit();
  });
});
