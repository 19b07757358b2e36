import type { RunSummary } from '../../src/engine/engine-types';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { TaskFixture, TaskVendor } from '../fixtures/crm/crm-tasks';
import { generatedDeals, WritableCrm, WritableCrmOptions } from '../fixtures/crm/crm-writes';
import { E2eSync } from './e2e-harness';

/** A preset's manager-tasks case: its fixture CRM, the ids of its generated deals, their owner. */
export interface ManagerTasksCase {
  preset: TaskVendor;
  fixture: { createCrm(options: WritableCrmOptions): WritableCrm; settings(url: string): Record<string, unknown> };
  /** ids of the generated deals: index → CRM deal id */
  dealId(index: number): string;
  /** the generated deals' responsible user, as the CRM names it */
  owner: string;
  /** the most tasks the preset's find_tasks asks for a page (its paging is then crossed by one more) */
  pageSize: number;
}

const DEALS = 10;
const TEXT = (deal: string) => `Deal ${deal}: no ad source. Ask the client how they found us.`;

/**
 * Tasks for managers end to end for one preset: the fixture CRM on loopback (its generated deals created five
 * days ago, every fifth without a visit), a real engine syncing them into the sandbox, then manager_tasks passes:
 * one task per deal without a visit, never twice — across passes, a lost create answer, and a crash after the CRM
 * took the create (the fingerprint never stored), with the deal's other tasks filling more than one page.
 */
export function describeManagerTasks(c: ManagerTasksCase): void {
  describe(`e2e: manager tasks in ${c.preset}`, () => {
    let crm: WritableCrm;
    let tasks: TaskFixture;
    let server: CrmServer;
    let e2e: E2eSync;
    let sync: RunSummary;
    const withoutVisit = generatedDeals(DEALS).filter((d) => !d.visitId).map((d) => c.dealId(d.index));
    const withVisit = generatedDeals(DEALS).filter((d) => d.visitId);
    const connectionId = `tasks-${c.preset}`;
    const pass = async (): Promise<RunSummary> => {
      const engine = e2e.engine();
      const { done } = await engine.outbound(connectionId, 'manager_tasks', 'cli');
      const summary = await done;
      await engine.shutdown(1000);
      return summary;
    };
    const counters = (summary: RunSummary) => ({ status: summary.status, error: summary.error, counters: summary.flowCounters });

    beforeAll(async () => {
      crm = c.fixture.createCrm({ moreDeals: DEALS, ageDays: 5 });
      tasks = new TaskFixture(c.preset, () => crm.dealIds(), c.owner);
      server = await startCrmServer(tasks.wrap(crm.handler));
      e2e = await E2eSync.start({
        connectionId, connector: 'generic-crm',
        settings: { ...c.fixture.settings(server.url), manager_tasks: { days: 3, text: 'Deal {{deal}}: no ad source. Ask the client how they found us.', settle_seconds: 1 } },
      });
      await e2e.registerVisits(withVisit.map((d) => d.visitId!));
      sync = await e2e.run();
    });
    afterAll(async () => {
      await e2e?.stop();
      await server?.close();
    });

    it('a pass makes one task for each deal sent without a visit for three days, for its responsible manager', async () => {
      expect({ status: sync.status, error: sync.error }).toEqual({ status: 'succeeded', error: null });
      expect(withoutVisit).toHaveLength(2);
      const first = await pass();
      expect(counters(first)).toEqual({ status: 'succeeded', error: null, counters: { due: 2, created: 2, already_created: 0, rejected: 0 } });
      for (const deal of withoutVisit) {
        expect(tasks.of(deal).map((t) => ({ text: t.text, responsible: t.responsible }))).toEqual([{ text: TEXT(deal), responsible: c.owner }]);
      }
      // deals with a visit get none
      expect(tasks.tasks.filter((t) => !withoutVisit.includes(t.deal))).toEqual([]);
    });

    it('the next pass sends nothing: each deal has its task', async () => {
      const before = tasks.creates;
      expect(counters(await pass())).toEqual({ status: 'succeeded', error: null, counters: { due: 2, created: 0, already_created: 2, rejected: 0 } });
      expect(tasks.creates).toBe(before);
    });

    it('a crash after the CRM took the create (no fingerprint stored) finds the task through every page of the deal\'s tasks: not made twice', async () => {
      const [deal] = withoutVisit;
      tasks.seedOthers(deal, c.pageSize);
      tasks.bury(deal, TEXT(deal));
      // the process died before it recorded the creates: the flow's fingerprints are gone
      await e2e.store.query(`DELETE FROM record_state WHERE stream = 'manager_tasks'`);
      const before = tasks.creates;
      const pages = tasks.listPages;
      expect(counters(await pass())).toEqual({ status: 'succeeded', error: null, counters: { due: 2, created: 0, already_created: 2, rejected: 0 } });
      expect(tasks.creates).toBe(before);
      // two pages for the deal with more tasks than a page holds, one for the other
      expect(tasks.listPages - pages).toBe(3);
      expect(tasks.of(deal).filter((t) => t.text === TEXT(deal))).toHaveLength(1);
    });

    it('a create whose answer is lost is looked up before it is sent again: one task', async () => {
      const deal = c.dealId(DEALS - 1 - 5); // index 4: the first deal without a visit
      expect(withoutVisit).toContain(deal);
      await e2e.store.query(`DELETE FROM record_state WHERE stream = 'manager_tasks'`);
      for (const d of withoutVisit) tasks.tasks.splice(0, tasks.tasks.length, ...tasks.tasks.filter((t) => t.deal !== d || t.text !== TEXT(d)));
      tasks.dropCreates.add(tasks.creates + 1);
      const third = await pass();
      expect(counters(third)).toEqual({ status: 'succeeded', error: null, counters: { due: 2, created: 2, already_created: 0, rejected: 0 } });
      for (const d of withoutVisit) expect(tasks.of(d).filter((t) => t.text === TEXT(d))).toHaveLength(1);
      expect(e2e.log()).toMatch(/the task create: its outcome is unknown/);
      // looked up only once the CRM had time to finish a create it may still be making (settle_seconds)
      expect(e2e.log()).toMatch(/waiting 1 s for the CRM to finish a task create whose outcome is unknown \(settle_seconds\) before looking it up/);
    });

    it("a deal deleted in the CRM is that deal's rejected record with the CRM's reason; the other deal still gets its task", async () => {
      const [gone, kept] = withoutVisit;
      await e2e.store.query(`DELETE FROM record_state WHERE stream = 'manager_tasks'`);
      tasks.tasks.splice(0, tasks.tasks.length);
      crm.deleteDeal(gone);
      const run = await pass();
      expect(counters(run)).toEqual({ status: 'succeeded', error: null, counters: { due: 2, created: 1, already_created: 0, rejected: 1 } });
      expect(tasks.of(kept).map((t) => t.text)).toEqual([TEXT(kept)]);
      expect(tasks.of(gone)).toEqual([]);
      const [rejected] = await e2e.store.query(`SELECT * FROM rejected_record WHERE stream = 'manager_tasks'`);
      expect(rejected).toMatchObject({ external_id: gone, field: expect.stringMatching(/^manager_tasks\.actions\.(deal_owner|create_task)$/) });
      expect(rejected.reason).toMatch(new RegExp(`^deal ${gone}: the task: the CRM refused`));
    });
  });
}
