import { DateTime } from 'luxon';
import type { RunSummary } from '../../src/engine/engine-types';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { TaskFixture } from '../fixtures/crm/crm-tasks';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { generatedDeals, WritableCrm } from '../fixtures/crm/crm-writes';
import { E2eSync } from './e2e-harness';

/**
 * Manager tasks' plain dates are days of the CRM account's zone, not of UTC: Pipedrive's activity `due_date`
 * (sent without a `due_time`: an all-day task on that day of the company's calendar). The text's `{{created}}` stays
 * the deal's UTC day: the text finds the tasks made before (task-once.ts), and a changed text would make them again.
 * The zone is the connection's `timezone` setting, else the service's UTC+03:00. The clock reads 22:30Z
 * (01:30 in Moscow, 17:30 in New York) when the Pipedrive fixture's deals are made and the pass runs: the deals
 * were created five days before at about 22:2xZ, and a task due 24 hours later is due at 22:30Z the next day.
 * Only the Date is faked (advancing with real time); timers, sockets, the sandbox and the store are real.
 */
const NOW = Date.parse('2026-12-01T22:30:00.000Z');

function describeDueDates(zone: string | undefined, expected: { due: string; created: string }): void {
  describe(`e2e: manager task dates in pipedrive, ${zone ? `timezone ${zone}` : 'no timezone set (UTC+03:00)'}`, () => {
    let crm: WritableCrm;
    let tasks: TaskFixture;
    let server: CrmServer;
    let e2e: E2eSync;
    let sync: RunSummary;
    const connectionId = `due-${zone ? zone.replace('/', '-') : 'service'}`;

    beforeAll(async () => {
      jest.useFakeTimers({
        now: NOW, advanceTimers: true,
        doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'],
      });
      crm = pipedrive.createCrm({ moreDeals: 10, ageDays: 5 });
      tasks = new TaskFixture('pipedrive', () => crm.dealIds(), '11');
      server = await startCrmServer(tasks.wrap(crm.handler));
      e2e = await E2eSync.start({
        connectionId, connector: 'generic-crm',
        settings: { ...pipedrive.settings(server.url), ...(zone ? { timezone: zone } : {}), manager_tasks: { days: 3, due_hours: 24, text: 'Deal {{deal}}: no visit since {{created}}.' } },
      });
      await e2e.registerVisits(generatedDeals(10).filter((d) => d.visitId).map((d) => d.visitId!));
      sync = await e2e.run();
    });
    afterAll(async () => {
      await e2e?.stop();
      await server?.close();
      jest.useRealTimers();
    });

    it(`a task made at 22:30Z is due on ${expected.due}; its deal, created at about 22:2xZ five days before, on ${expected.created}`, async () => {
      expect({ status: sync.status, error: sync.error }).toEqual({ status: 'succeeded', error: null });
      const engine = e2e.engine();
      const { done } = await engine.outbound(connectionId, 'manager_tasks', 'cli');
      const pass = await done;
      await engine.shutdown(1000);
      expect({ status: pass.status, error: pass.error, created: pass.flowCounters?.created }).toEqual({ status: 'succeeded', error: null, created: 2 });
      expect(tasks.tasks.map((t) => ({ due: t.due, text: t.text }))).toEqual(
        ['1105', '1110'].map((deal) => ({ due: expected.due, text: `Deal ${deal}: no visit since ${expected.created}.` })),
      );
      // the clock was faked: the day of the UTC instant would have been the day before
      expect(DateTime.fromMillis(Date.now(), { zone: 'UTC' }).toISODate()).toBe('2026-12-01');
    });
  });
}

describeDueDates(undefined, { due: '2026-12-03', created: '2026-11-26' });
describeDueDates('Asia/Yekaterinburg', { due: '2026-12-03', created: '2026-11-26' });
describeDueDates('America/New_York', { due: '2026-12-02', created: '2026-11-26' });
