/**
 * A connection's flows on their real schedules (issue 38, item 5): one generic-CRM connection (the Pipedrive
 * fixture CRM on loopback, with the preset's own rate limit) whose sync, lead delivery and write-back all run
 * every minute, for ten minutes, through the daemon's modules (scheduler, trigger path, engine, SQLite store) and
 * the sandbox. The three fire in the same second and the connection runs one at a time. Prints per flow: ticks
 * (fire times in the window), runs started, ticks skipped (a run of the flow was already waiting), the longest a
 * tick waited for its run, and windows with no run of the flow. The same run, compressed to seconds, is
 * test/scheduler/flow-schedules.spec.ts.
 * Usage: npm run bench:schedules [-- --minutes 10 --schedule "* * * * *"]
 */
import '../src/connectors/serve-contract'; // first: the fixtures and the connector import tracker-sync/connector
import { runFlowSchedules } from '../test/support/flow-schedules';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const MINUTES = Number(option('--minutes', '10'));
const SCHEDULE = option('--schedule', '* * * * *');

async function main(): Promise<void> {
  console.log(`sync, leads and write-back each on "${SCHEDULE}" for ${MINUTES} minutes (from the first tick)…`);
  const report = await runFlowSchedules({ sync: SCHEDULE, leads: SCHEDULE, write_back: SCHEDULE }, MINUTES * 60_000, { presetRateLimit: true });
  const rows = report.flows.map((f) => [f.flow, f.ticks, f.runs, f.skipped, `${(f.max_wait_ms / 1000).toFixed(1)} s`, f.missed_windows, `${(f.average_run_ms / 1000).toFixed(1)} s`]);
  const head = ['flow', 'ticks', 'runs', 'skipped', 'max wait', 'missed windows', 'average run'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  for (const row of [head, ...rows]) console.log(row.map((cell, i) => String(cell).padEnd(widths[i])).join('  '));
  console.log(`most runs of one flow waiting at once: ${report.most_waiting_per_flow}; overlapping runs: ${report.overlaps}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
