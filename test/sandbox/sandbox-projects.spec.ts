import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxHarness } from './sandbox-harness';

/** `sandbox.projects`: the sandbox's key owns projects 1..N; the demo seed fills the first only. */
describe('sandbox projects', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-projects-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hosts three projects owned by its key, the demo data in project 1 alone', async () => {
    const sandbox = await SandboxHarness.start({ projects: 3 });
    try {
      const listed = await sandbox.get('user/projects', { project: null });
      expect(listed.status).toBe(200);
      expect(listed.body.projects.map((p: { id: number; name: string }) => [p.id, p.name]))
        .toEqual([[1, 'Demo project'], [2, 'Project 2'], [3, 'Project 3']]);
      const visits = await Promise.all([1, 2, 3].map((project) => sandbox.post('project/site/visit/list', { limit: 1 }, { project })));
      expect(visits.map((answer) => [answer.status, answer.body.total])).toEqual([[200, 2000], [200, 0], [200, 0]]);
      // each is a project of its own: statuses, and an order sent to project 3 is not in project 2
      const statuses = await sandbox.post('project/integration/status/list', {}, { project: 3 });
      expect(statuses.status).toBe(200);
      await sandbox.post('project/add-orders', [{ id: 'only-in-3', price: '1' }], { project: 3 });
      const [two, three] = await Promise.all([2, 3].map((project) => sandbox.post('project/integration/order/list', {}, { project })));
      expect([two.body.data.length, three.body.data.map((o: { id: string }) => o.id)]).toEqual([0, ['only-in-3']]);
      // a number it does not host is refused as the service refuses another's project
      expect((await sandbox.post('project/integration/order/list', {}, { project: 4 })).body).toMatchObject({ status: 'error', error: 'access_denied' });
    } finally {
      await sandbox.close();
    }
  });

  it('adds the missing projects to a sandbox database that has fewer, keeping its key and data', async () => {
    const db = join(dir, 'grow.sqlite');
    const first = await SandboxHarness.start({ db, apiKey: undefined });
    const key = first.apiKey;
    await first.post('project/add-orders', [{ id: 'kept', price: '1' }]);
    expect((await first.get('user/projects', { project: null })).body.projects).toHaveLength(1);
    await first.close();

    const second = await SandboxHarness.start({ db, apiKey: undefined, projects: 4 });
    try {
      expect(second.apiKey).toBe(key);
      const listed = await second.get('user/projects', { project: null });
      expect(listed.body.projects.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4]);
      expect((await second.post('project/integration/order/list', {})).body.data.map((o: { id: string }) => o.id)).toEqual(['kept']);
      expect((await second.post('project/site/visit/list', { limit: 1 })).body.total).toBe(2000); // seeded once
    } finally {
      await second.close();
    }
    const third = await SandboxHarness.start({ db, apiKey: undefined, projects: 2 });
    try {
      // fewer asked than kept: nothing is removed
      expect((await third.get('user/projects', { project: null })).body.projects).toHaveLength(4);
    } finally {
      await third.close();
    }
  });
});
