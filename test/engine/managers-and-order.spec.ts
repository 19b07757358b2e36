import { describeStores } from '../support/store-drivers';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

describeStores('engine: managers diff and stream order', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  const managers = () => [
    { id: 'm1', name: 'Anna', email: 'anna@example.com' },
    { id: 'm2', name: 'Boris', phone: '+7 900 000 00 02' },
    { id: 'm3', name: 'Vera', email: 'vera@example.com' },
  ];

  it('adds new managers, updates changed ones, deletes ones gone from the CRM', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.managers = managers();
    const first = await h.run();
    expect(first.streams.managers).toMatchObject({ read: 3, sent: 3 });
    expect(h.service.callsTo('/manager/add').map((c) => c.ids[0])).toEqual(['m1', 'm2', 'm3']);

    h.service.calls.length = 0;
    h.source.managers = [managers()[0], { ...managers()[1], name: 'Boris B.' }, { id: 'm4', name: 'Gleb', email: 'g@example.com' }];
    const second = await h.run();
    expect(second.status).toBe('succeeded');
    expect(second.streams.managers).toMatchObject({ read: 3, unchanged: 1, sent: 2 });
    expect(h.service.callsTo('/manager/update').map((c) => c.ids[0])).toEqual(['m2']);
    expect(h.service.callsTo('/manager/add').map((c) => c.ids[0])).toEqual(['m4']);
    expect(h.service.callsTo('/manager/delete').map((c) => c.ids[0])).toEqual(['m3']);
    expect([...h.service.managers.keys()].sort()).toEqual(['m1', 'm2', 'm4']);
    expect(h.service.managers.get('m2').name).toBe('Boris B.');
    const states = await h.query(`SELECT external_id FROM record_state WHERE stream = 'managers' ORDER BY external_id`);
    expect(states.map((s: { external_id: string }) => s.external_id)).toEqual(['m1', 'm2', 'm4']);
  });

  it('keeps managers gone from the CRM when delete_missing_managers is off', async () => {
    h = await new EngineHarness({ driver, sync: { delete_missing_managers: false } }).start();
    h.source.managers = managers();
    await h.run();
    h.source.managers = managers().slice(0, 1);
    await h.run();
    expect(h.service.callsTo('/manager/delete')).toHaveLength(0);
    expect(h.service.managers.size).toBe(3);
  });

  it('keeps a manager whose row the source rejects (it is still there, with a typo): only those gone are deleted', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.managers = managers();
    await h.run();
    h.service.calls.length = 0;
    // m3's row now fails the connector's own check (an empty name), m2's the service's rules (no phone, no email)
    h.source.managers = [managers()[0], { id: 'm2', name: 'Boris' }];
    h.source.rejected = [{ id: 'm3', field: 'name', reason: 'the name is empty', ref: 'managers.csv row 4' }];
    h.source.rejectedStream = 'managers';
    const run = await h.run();
    expect(run.rejected.map((r: { external_id: string }) => r.external_id).sort()).toEqual(['m2', 'm3']);
    expect(h.service.callsTo('/manager/delete')).toHaveLength(0);
    expect([...h.service.managers.keys()].sort()).toEqual(['m1', 'm2', 'm3']);
  });

  it('deletes nothing when a whole read of the managers finds none at all (an empty export), and says so', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.managers = managers();
    await h.run();
    h.source.managers = [];
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    expect(h.service.callsTo('/manager/delete')).toHaveLength(0);
    expect(h.service.managers.size).toBe(3);
    expect(h.logger.lines.join('\n')).toMatch(/warn .*managers: the source holds none; the 3 known are not deleted/);
  });

  it('a manager with neither phone nor email is rejected by the checks', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.managers = [{ id: 'm9', name: 'Nobody' }];
    const run = await h.run();
    expect(run.rejected[0]).toMatchObject({ stream: 'managers', external_id: 'm9', field: 'phone', reason: 'phone or email must be given' });
  });

  it('imports every client before the first deal (request order seen by the service)', async () => {
    h = await new EngineHarness({ driver, batchSize: 10, concurrency: 4 }).start();
    h.source.managers = managers();
    h.source.clients = Array.from({ length: 45 }, (_, i) => ({
      id: `c${i}`, name: `Client ${i}`, phones: ['+7 900 1', '+7 900 2'], emails: [], updated_at: new Date('2025-03-01T00:00:00Z'),
    }));
    h.source.deals = makeDeals(40).map((d, i) => ({ ...d, client_id: `c${i}` }));
    const run = await h.run();
    expect(run.status).toBe('succeeded');
    const paths = h.service.calls.map((c) => c.path);
    const lastManager = paths.lastIndexOf('/project/integration/manager/add');
    const firstClient = paths.indexOf('/project/clients/import');
    const lastClient = paths.lastIndexOf('/project/clients/import');
    const firstDeal = paths.indexOf('/project/add-orders');
    expect(lastManager).toBeLessThan(firstClient);
    expect(lastClient).toBeLessThan(firstDeal);
    expect(h.service.clients.size).toBe(45);
    expect(h.service.clients.get('c1')).toMatchObject({ phone: '+7 900 1,+7 900 2', email: null });
    expect(run.streams.clients).toMatchObject({ read: 45, sent: 45 });
    // each read is told what the run reads after it (the spreadsheet connector scans those files meanwhile)
    expect(h.source.windows.map((w) => [w.stream, w.later])).toEqual([
      ['managers', ['clients', 'deals']], ['clients', ['deals']], ['deals', []],
    ]);
  });

  it('a run of one stream tells its read that nothing comes after it', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.deals = makeDeals(3);
    h.source.managers = managers();
    const { done } = await h.sync.start(h.connectionId, { mode: 'incremental', trigger: 'cli', onlyStreams: ['managers'] });
    expect((await done).status).toBe('succeeded');
    expect(h.source.windows.map((w) => [w.stream, w.later])).toEqual([['managers', []]]);
  });
});

describeStores('engine: a stream whose own source fails', (driver) => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  const clients = () => [{ id: 'c1', name: 'Client 1', phones: ['+7 900 1'], updated_at: new Date('2025-03-01T00:00:00Z') }];
  const sourceFails = (failing: string, error: Error) => (stream: string) => {
    if (stream === failing) throw error;
  };
  /** what a connector says of a refusal: `lasting`, and `reach` (one endpoint, or the whole source) */
  const refusal = (message: string, reach?: 'stream' | 'source') => Object.assign(new Error(message), { lasting: true, reach });

  it('fails that stream alone: the streams that do not need it are synced, and the run fails naming it and them', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.managers = [{ id: 'm1', name: 'Anna', email: 'anna@example.com' }];
    h.source.clients = clients();
    h.source.deals = makeDeals(3).map((d) => ({ ...d, client_id: 'c1', manager_id: 'm1' }));
    h.source.beforePage = sourceFails('managers', new Error('managers.csv is an empty file (0 bytes)'));
    const run = await h.run();
    expect({ status: run.status, error: run.error, lasting: run.lasting }).toEqual({
      status: 'failed', error: 'stream managers: managers.csv is an empty file (0 bytes); the run went on without it: synced clients, deals', lasting: undefined,
    });
    expect(run.streams).toMatchObject({ clients: { read: 1, sent: 1 }, deals: { read: 3, sent: 3 } });
    expect([...h.service.orders.keys()]).toEqual(['d1', 'd2', 'd3']);
    expect(await h.cursor('deals')).toBe('2025-03-10T09:00:02.000Z');
    const stored = await h.query('SELECT status, error FROM run WHERE id = ?', [run.runId]);
    expect(stored).toEqual([{ status: 'failed', error: run.error }]);
  });

  it('skips the deals when the clients failed (a deal sent before its client is not linked), and sends them once the clients go', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.clients = clients();
    h.source.deals = makeDeals(2).map((d) => ({ ...d, client_id: 'c1' }));
    h.source.beforePage = sourceFails('clients', new Error('file clients.csv does not exist'));
    const run = await h.run();
    expect({ status: run.status, error: run.error }).toEqual({
      status: 'failed',
      error: 'stream clients: file clients.csv does not exist; the run went on without it: synced managers; skipped deals (it needs clients, which failed)',
    });
    expect(h.source.windows.map((w) => w.stream)).toEqual(['managers', 'clients']); // the deals were not even read
    expect(h.service.callsTo('/project/add-orders')).toHaveLength(0);
    expect(await h.cursor('deals')).toBeNull();

    h.source.beforePage = undefined;
    const next = await h.run();
    expect({ status: next.status, error: next.error }).toEqual({ status: 'succeeded', error: null });
    const paths = h.service.calls.map((c) => c.path);
    expect(paths.lastIndexOf('/project/clients/import')).toBeLessThan(paths.indexOf('/project/add-orders'));
    expect([...h.service.orders.keys()]).toEqual(['d1', 'd2']);
  });

  it('a failure not the stream\'s own (the service down after retries) still stops the run, after naming the streams that failed before', async () => {
    h = await new EngineHarness({ driver, retries: 1 }).start();
    h.source.managers = [{ id: 'm1', name: 'Anna', email: 'anna@example.com' }];
    h.source.clients = clients();
    h.source.deals = makeDeals(2);
    h.source.beforePage = sourceFails('managers', new Error('users: HTTP 500'));
    h.service.script = (call) => (call.path === '/project/clients/import' ? { status: 503, body: { status: 'error', error: 'down' } } : undefined);
    const run = await h.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^stream managers: users: HTTP 500; stream clients: batch of 1 records \(c1…c1\) failed: .*503.*; the run stopped at clients: synced none; not read deals$/);
    expect(h.source.windows.map((w) => w.stream)).toEqual(['managers', 'clients']);
  });

  it('a lasting refusal stops the run when the whole source is refused, and fails one stream when one endpoint is', async () => {
    h = await new EngineHarness({ driver }).start();
    h.source.managers = [{ id: 'm1', name: 'Anna', email: 'anna@example.com' }];
    h.source.deals = makeDeals(2);
    h.source.beforePage = sourceFails('managers', refusal('users: HTTP 401: the token is revoked'));
    const token = await h.run();
    expect({ status: token.status, error: token.error, lasting: token.lasting }).toEqual({ status: 'failed', error: 'stream managers: users: HTTP 401: the token is revoked', lasting: true });
    expect(h.source.windows.map((w) => w.stream)).toEqual(['managers']);

    h.source.beforePage = sourceFails('managers', refusal('users: HTTP 403: administrators only', 'stream'));
    const endpoint = await h.run();
    expect({ status: endpoint.status, error: endpoint.error, lasting: endpoint.lasting }).toEqual({
      status: 'failed', error: 'stream managers: users: HTTP 403: administrators only; the run went on without it: synced clients, deals', lasting: true,
    });
    expect(h.service.orders.size).toBe(2);
  });
});
