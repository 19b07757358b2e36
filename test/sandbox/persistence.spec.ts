import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxHarness } from './sandbox-harness';

/** A file-backed sandbox keeps its data, key and seed across a restart. */
describe('sandbox persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-persist-'));
  const db = join(dir, 'sandbox.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps orders, managers, clients, visits and the generated key after a restart', async () => {
    const first = await SandboxHarness.start({ db, apiKey: undefined });
    const key = first.apiKey;
    expect(key).toMatch(/^sb_/);
    await first.post('project/add-orders', [{ id: 'kept-1', price: '42', tracker: '1000001' }, { id: 'held-1', tracker: '5550001' }]);
    await first.post('project/integration/manager/add', { id: '7', name: 'Kept Manager', email: 'm@example.com' });
    await first.post('project/clients/import', [{ id: 'cl-kept', name: 'Kept Client', phone: '+70000000000' }]);
    await first.post('project/site/visit/params/update', { visit: '1000002', tracker_param7: 'kept' });
    await first.close();

    const second = await SandboxHarness.start({ db, apiKey: undefined });
    try {
      expect(second.apiKey).toBe(key);
      const orders = await second.post('project/integration/order/list', {});
      expect(orders.body.data).toEqual([expect.objectContaining({ id: 'kept-1', revenue: 42, visit_id: '1000001' })]);
      const managers = await second.post('project/integration/manager/list', {});
      expect(managers.body.data).toEqual([{ id: 7, name: 'Kept Manager', email: 'm@example.com', phone: '' }]);
      const clients = await second.post('project/clients', {});
      expect(clients.body.clients[0]).toMatchObject({ external_id: 'cl-kept', name: 'Kept Client' });
      const visits = await second.post('project/site/visit/list', { filters: [['id', '=', '1000002']] });
      expect(visits.body.data[0].tracker_params['7']).toBe('kept');
      expect(visits.body.total).toBe(1);
      const all = await second.post('project/site/visit/list', { limit: 1 });
      expect(all.body.total).toBe(2000); // the demo seed ran once, not twice
      // The held order still waits for its visit after the restart.
      await second.post('_sandbox/visits', [{ id: '5550001' }]);
      const released = await second.get('project/orders/held-1/info');
      expect(released.body.order).toMatchObject({ id: 'held-1', visit_id: '5550001' });
    } finally {
      await second.close();
    }
  });
});
