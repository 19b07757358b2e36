import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { StoreRepositories } from '../../src/store/store-repositories';
import { HeartbeatService } from '../../src/cluster/heartbeat.service';
import { DaemonEntity } from '../../src/store/entities/daemon.entity';
import { eventually, removeDir, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { GOOD_TOKEN } from '../admin/fixtures/test-connector';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';
import { describeStores } from '../support/store-drivers';

const ADMIN_TOKEN = 'cluster-admin-token-9d1e';

describe('GET /api/cluster', () => {
  let sandbox: { app: INestApplication; url: string };
  let app: INestApplication;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    delete process.env.ADMIN_TOKEN;
    sandbox = await startSandbox();
    dataDir = tempDataDir();
    ({ app, url } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: ADMIN_TOKEN,
      connections: [{ id: 'slow', connector: 'test-source', settings: { token: GOOD_TOKEN, deals: 3, delay_ms: 1500 } }],
    }));
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.app.close();
    removeDir(dataDir);
  });

  const api = (path: string) => request(url).get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`);

  it('needs the admin token', async () => {
    const res = await request(url).get('/api/cluster');
    expect(res.status).toBe(401);
  });

  it('lists this daemon with its heartbeat, and the connection it runs', async () => {
    const idle = await api('/api/cluster');
    expect(idle.status).toBe(200);
    expect(idle.body.daemons).toHaveLength(1);
    expect(idle.body.daemons[0]).toMatchObject({ id: idle.body.self, self: true, pid: process.pid, running: [] });
    expect(idle.body.recent_seconds).toBe(30);

    const started = await request(url).post('/api/connections/slow/sync').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    expect(started.status).toBe(202);
    await app.get(HeartbeatService).beat(); // the 5 s timer, now
    const busy = await api('/api/cluster');
    expect(busy.body.daemons[0].running).toEqual([{ connection_id: 'slow', run_id: started.body.run_id }]);
    await eventually(async () => (await api(`/api/runs/${started.body.run_id}`)).body.status === 'succeeded');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await request(url).get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/api/cluster'].get.responses['200']).toBeDefined();
    expect(doc.body.components.schemas.ClusterResponse.properties.daemons).toBeDefined();
  });
});

describeStores('heartbeat', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('writes its row every interval with the running connections, and removes it at shutdown', async () => {
    h = await new EngineHarness({ driver, batchSize: 5 }).start();
    h.source.deals = makeDeals(20);
    h.service.delayMs = 40;
    const heartbeat = new HeartbeatService(new StoreRepositories(h.dataSource).daemons, h.sync, { intervalMs: 50 });
    await heartbeat.onApplicationBootstrap();
    const rows = () => h.dataSource.getRepository(DaemonEntity).find();
    expect(await rows()).toMatchObject([{ id: h.sync.holderId, pid: process.pid, running: [] }]);
    const first = (await rows())[0].heartbeat_at;

    const { runId, done } = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'admin' });
    const seen = await eventually(async () => {
      const [row] = await rows();
      // a run that is starting is listed before its row exists (run_id null): wait for its id
      return row.running.length > 0 && row.running[0].run_id !== null && row;
    });
    expect(seen.running).toEqual([{ connection_id: h.connectionId, run_id: runId }]);
    expect(seen.heartbeat_at > first).toBe(true);
    await done;
    await heartbeat.onApplicationShutdown();
    expect(await rows()).toEqual([]);
  });
});
