import type { INestApplication } from '@nestjs/common';
import { CronTime } from 'cron';
import { DataSource } from 'typeorm';
import genericCrm from '../../connectors/generic-crm';
import { RunTriggerService } from '../../src/application/runs/run-trigger.service';
import { SchedulerService } from '../../src/scheduler';
import type { ScheduledFlow } from '../../src/scheduler/tick-ledger';
import { RunEntity } from '../../src/store/entities/run.entity';
import { removeDir, SANDBOX_KEY, startAdminApp, startSandbox, tempDataDir } from '../admin/admin-test-app';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';

/**
 * One connection with a sync, lead delivery and write-back, each on a schedule of its own, run by the daemon's
 * modules (scheduler, trigger path, engine, store) against the sandbox and the Pipedrive fixture CRM for a while.
 * The schedules are parameters: the test runs them every few seconds for half a minute, `npm run bench:schedules`
 * runs the real one-minute schedules for ten minutes (test/scheduler/flow-schedules.spec.ts, bench/flow-schedules.ts).
 */
export interface FlowSchedules {
  sync: string;
  leads: string;
  write_back: string;
}

export const FLOWS: readonly (keyof FlowSchedules & ScheduledFlow)[] = ['sync', 'leads', 'write_back'];
const CONNECTION = 'crm';

/** One flow over the measured window. */
export interface FlowFigures {
  flow: ScheduledFlow;
  /** the schedule's fire times in the window */
  ticks: number;
  /** ticks the scheduler saw (its ledger), and those of them that found a run of the flow already waiting */
  ledger_ticks: number;
  skipped: number;
  /** runs of the flow started in the window */
  runs: number;
  /** fire times with no run of the flow starting between it and the next fire time */
  missed_windows: number;
  /** the longest a tick waited for its run, in milliseconds (the scheduler's ledger) */
  max_wait_ms: number;
  /** the flow's runs in the window: the longest and the average, in milliseconds */
  longest_run_ms: number;
  average_run_ms: number;
}

export interface FlowScheduleReport {
  flows: FlowFigures[];
  /** the most runs of one flow waiting at once, sampled every 100 ms */
  most_waiting_per_flow: number;
  /** runs of the connection that overlapped another (there must be none) */
  overlaps: number;
}

/**
 * Runs the schedules for `durationMs` after the first fire time and measures each flow. `presetRateLimit`: the
 * preset's own limit on the CRM (Pipedrive's, as a real account has it) instead of the fixture's fast one.
 */
export async function runFlowSchedules(
  schedules: FlowSchedules,
  durationMs: number,
  options: { presetRateLimit?: boolean; warmupTicks?: number } = {},
): Promise<FlowScheduleReport> {
  const sandbox = await startSandbox();
  const { rate_limit: fast, ...settings } = pipedrive.settings('');
  const rateLimit = options.presetRateLimit ? {} : { rate_limit: fast };
  const crm: CrmServer = await startCrmServer(pipedrive.createCrm().handler);
  const dataDir = tempDataDir();
  let app: INestApplication | undefined;
  let sampler: NodeJS.Timeout | undefined;
  try {
    for (let i = 0; i < 5; i++) await addProxyLead(sandbox.url, i);
    ({ app } = await startAdminApp(sandbox.url, {
      dataDir,
      adminToken: 'flow-schedules-admin-token',
      connectors: [genericCrm],
      connections: [{
        id: CONNECTION, connector: 'generic-crm', schedule: schedules.sync,
        settings: {
          ...settings, ...rateLimit, base_url: `${crm.url}/api`,
          lead_delivery: { lead_id_field: 'ID заявки', schedule: schedules.leads },
          write_back: { fields: { channel: 'Lead source' }, schedule: schedules.write_back },
        },
      }],
    }));
    // the first ticks read every deal and deliver the waiting leads: a test may measure after them
    let from = nextFire(schedules.sync, new Date());
    for (let i = 0; i < (options.warmupTicks ?? 0); i++) from = nextFire(schedules.sync, from);
    const until = new Date(from.getTime() + durationMs);
    const triggers = app.get(RunTriggerService);
    let mostWaiting = 0;
    sampler = setInterval(() => {
      const waiting = triggers.queuedFollowUps(CONNECTION).map((r) => (r.kind === 'sync' ? 'sync' : r.flow));
      for (const flow of FLOWS) mostWaiting = Math.max(mostWaiting, waiting.filter((w) => w === flow).length);
    }, 100);
    await sleep(from.getTime() - 100 - Date.now());
    const ledgerAtStart = new Map(FLOWS.map((flow) => [flow, app!.get(SchedulerService).ticksOf(CONNECTION, flow)]));
    await sleep(until.getTime() - Date.now());
    clearInterval(sampler);
    const ledgerAtEnd = new Map(FLOWS.map((flow) => [flow, app!.get(SchedulerService).ticksOf(CONNECTION, flow)]));
    const runs = await app.get(DataSource).getRepository(RunEntity).find({ where: { connection_id: CONNECTION }, order: { id: 'ASC' } });
    const flows = FLOWS.map((flow) => {
      const fires = fireTimes(schedules[flow], from, until);
      const ofFlow = runs.filter((r) => (flow === 'sync' ? r.direction === 'sync' : r.flow === flow) && r.trigger === 'schedule')
        .filter((r) => Date.parse(r.started_at) >= from.getTime() - 50 && Date.parse(r.started_at) < until.getTime());
      const starts = ofFlow.map((r) => Date.parse(r.started_at));
      const lengths = ofFlow.filter((r) => r.finished_at).map((r) => Date.parse(r.finished_at!) - Date.parse(r.started_at));
      const before = ledgerAtStart.get(flow), after = ledgerAtEnd.get(flow);
      return {
        flow,
        ticks: fires.length,
        ledger_ticks: (after?.ticks ?? 0) - (before?.ticks ?? 0),
        skipped: (after?.skipped ?? 0) - (before?.skipped ?? 0),
        runs: starts.length,
        missed_windows: missedWindows(fires, starts, schedules[flow]),
        max_wait_ms: after?.max_wait_ms ?? 0,
        longest_run_ms: Math.max(0, ...lengths),
        average_run_ms: lengths.length ? Math.round(lengths.reduce((a, b) => a + b, 0) / lengths.length) : 0,
      };
    });
    return { flows, most_waiting_per_flow: mostWaiting, overlaps: overlapsOf(runs) };
  } finally {
    if (sampler) clearInterval(sampler);
    await app?.close();
    await sandbox.app.close();
    await crm.close();
    removeDir(dataDir);
  }
}

/** A proxy lead in the service (the sandbox's way in), for lead delivery to deliver. */
async function addProxyLead(sandboxUrl: string, i: number): Promise<void> {
  const answer = await fetch(`${sandboxUrl}/project/proxy-leads/add?project=1`, {
    method: 'POST', headers: { 'Api-key': SANDBOX_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Заявка', name: `Лид ${i}`, phone: `+7912000${String(1000 + i)}`, email: '', text: '', tracker: String(1000005 + i) }),
  });
  if (answer.status !== 200) throw new Error(`the sandbox refused a proxy lead: ${answer.status}`);
}

function nextFire(schedule: string, after: Date): Date {
  return new CronTime(schedule).getNextDateFrom(after).toJSDate();
}

function fireTimes(schedule: string, from: Date, until: Date): number[] {
  const out: number[] = [];
  for (let t = new Date(from.getTime() - 1); ; ) {
    t = nextFire(schedule, t);
    if (t.getTime() >= until.getTime()) return out;
    out.push(t.getTime());
  }
}

/** Fire times whose window (up to the next fire time) saw no run of the flow start; each run counts for one window. */
function missedWindows(fires: number[], starts: number[], schedule: string): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let next = 0, missed = 0;
  for (const fire of fires) {
    const end = nextFire(schedule, new Date(fire)).getTime();
    while (next < sorted.length && sorted[next] < fire - 50) next += 1;
    if (next < sorted.length && sorted[next] < end) next += 1;
    else missed += 1;
  }
  return missed;
}

function overlapsOf(runs: RunEntity[]): number {
  const spans = runs.filter((r) => r.finished_at).map((r) => [Date.parse(r.started_at), Date.parse(r.finished_at!)]).sort((a, b) => a[0] - b[0]);
  let overlaps = 0;
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) overlaps += 1;
  return overlaps;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
