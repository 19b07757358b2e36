import type { INestApplication } from '@nestjs/common';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { DateTime } from 'luxon';
import request from 'supertest';
import { spreadsheetConnector } from '../../connectors/spreadsheet';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from './admin-test-app';

const ADMIN_TOKEN = 'admin-token-for-open-rejections';
const DEMO = join(__dirname, '..', '..', 'config', 'demo');
const ITEM_KEYS = ['connection_id', 'excerpt', 'external_id', 'field', 'first_seen', 'last_seen', 'reason', 'ref', 'run_id', 'source', 'stream'];

/**
 * The demo flow of issue 19 item 5 over real HTTP: the bundled demo export (copied), the spreadsheet connector,
 * a restart whose start-up run finds the file unchanged, then a fixed row.
 */
describe('admin API: GET /api/connections/{id}/rejected (open rejections)', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication | undefined;
  let url: string;
  let dataDir: string;
  let deals: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = tempDataDir();
    for (const file of ['deals.csv', 'clients.csv', 'managers.csv']) copyFileSync(join(DEMO, file), join(dataDir, file));
    deals = join(dataDir, 'deals.csv');
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  /** A daemon start on the same data folder: its start-up run is awaited. */
  async function start(): Promise<Record<string, any>> {
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connectors: [spreadsheetConnector],
      connections: [{
        id: 'demo-sheet', connector: 'spreadsheet', run_on_start: true,
        settings: {
          deals: { path: deals, status_map: { new: '0', in_work: '0', '142': '1', '143': '2' } },
          clients: { path: join(dataDir, 'clients.csv') },
          managers: { path: join(dataDir, 'managers.csv') },
        },
      }],
    }));
    return eventually(async () => {
      const runs = (await get('/api/runs?connection=demo-sheet&limit=1')).body.runs;
      return runs[0]?.trigger === 'startup' && runs[0].status !== 'running' && runs[0];
    }, 20_000);
  }

  async function stop(): Promise<void> {
    await app!.close();
    app = undefined;
  }

  const get = (path: string, token: string | null = ADMIN_TOKEN) => {
    const req = request(url).get(path);
    return token === null ? req : req.set('Authorization', `Bearer ${token}`);
  };

  async function sync(): Promise<Record<string, any>> {
    const res = await request(url).post('/api/connections/demo-sheet/sync').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    expect(res.status).toBe(202);
    return eventually(async () => {
      const run = (await get(`/api/runs/${res.body.run_id}`)).body;
      return run.status !== 'running' && run;
    }, 20_000);
  }

  it('keeps the broken demo rows visible across a restart that finds the file unchanged; a fixed row leaves', async () => {
    const first = await start();
    // four rows the file breaks, a comment over 1000 symbols, and the deal the service skipped for its status (on_hold)
    expect(first).toMatchObject({ status: 'succeeded', rejected_count: 6 });
    const open = (await get('/api/connections/demo-sheet/rejected')).body;
    expect(open.total).toBe(6);
    expect(Object.keys(open.rejected[0]).sort()).toEqual(ITEM_KEYS);
    const byRef = Object.fromEntries(open.rejected.map((r: any) => [r.ref, r]));
    expect(byRef['deals.csv row 5']).toMatchObject({
      stream: 'deals', external_id: 'D-10004', field: 'created_at', reason: expect.stringContaining('31.02.2026'), run_id: first.id,
    });
    expect(byRef['deals.csv row 5'].first_seen).toBe(byRef['deals.csv row 5'].last_seen);
    const emptyId = open.rejected.filter((r: any) => r.external_id === '');
    expect(emptyId).toHaveLength(1);
    expect(emptyId[0]).toMatchObject({ field: 'id', ref: expect.stringMatching(/^deals\.csv row \d+$/) });
    expect(open.rejected.filter((r: any) => r.external_id === 'D-10056')).toMatchObject([{ field: 'id', reason: expect.stringContaining('duplicate') }]);

    await stop();
    const restart = await start();
    expect(restart.streams.deals).toMatchObject({ read: 0, rejected: 0 }); // deals.csv is unchanged since the last sync
    expect((await get(`/api/runs/${restart.id}/rejected`)).body.total).toBe(0); // the run-level list stays as it was
    const after = (await get('/api/connections/demo-sheet/rejected')).body;
    expect(after.total).toBe(6);
    expect(after.rejected).toEqual(open.rejected);

    // fix the impossible date in the export; the CRM that made it would move updated_at too
    const edited = DateTime.now().setZone('Europe/Moscow').minus({ minutes: 1 }).toFormat('dd.MM.yyyy HH:mm');
    const text = iconv.decode(readFileSync(deals), 'win1251');
    expect(text).toContain(';31.02.2026 10:00;05.10.2026 22:17;');
    writeFileSync(deals, iconv.encode(text.replace(';31.02.2026 10:00;05.10.2026 22:17;', `;28.02.2026 10:00;${edited};`), 'win1251'));
    const fixed = await sync();
    expect(fixed.status).toBe('succeeded');
    const left = (await get('/api/connections/demo-sheet/rejected')).body;
    expect(left.total).toBe(5); // the skipped deal was sent again with the changed file, and skipped again
    expect(left.rejected.map((r: any) => r.external_id)).not.toContain('D-10004');
    for (const r of left.rejected) expect(r.first_seen).toBe(byRef[r.ref].first_seen);
  });

  it('pages, filters by stream, and refuses a bad query, an unknown connection and a missing token', async () => {
    const all = (await get('/api/connections/demo-sheet/rejected')).body;
    const page = await get('/api/connections/demo-sheet/rejected?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: all.total, limit: 2, offset: 1 });
    expect(page.body.rejected).toEqual(all.rejected.slice(1, 3));
    expect((await get('/api/connections/demo-sheet/rejected?stream=deals')).body.total).toBe(all.total);
    expect((await get('/api/connections/demo-sheet/rejected?stream=clients')).body).toMatchObject({ total: 0, rejected: [] });

    const bad = await get('/api/connections/demo-sheet/rejected?stream=orders&limit=0');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/stream/);
    expect(JSON.stringify(bad.body)).toMatch(/limit/);
    expect((await get('/api/connections/nope/rejected')).status).toBe(404);
    expect((await get('/api/connections/demo-sheet/rejected', null)).status).toBe(401);
  });

  it('is in the OpenAPI document with its query parameters', async () => {
    const doc = (await request(url).get('/docs-json')).body;
    const operation = doc.paths['/api/connections/{id}/rejected']?.get;
    expect(operation).toBeDefined();
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['id', 'limit', 'offset', 'stream']);
  });
});
