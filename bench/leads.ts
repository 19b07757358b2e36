/**
 * Lead delivery, end to end, as a user runs it: the time from a proxy lead's creation in the service to its deal
 * in the CRM, p50 and p95 over 100 leads, with the flow's default schedule (every minute, as the scheduler runs
 * it: a `cron` job of lead_delivery.schedule), and the requests each lead costs on both sides.
 * Real parts: the sandbox (the service's twin; leads made through its sandbox-only POST /project/proxy-leads/add)
 * on loopback, the amoCRM fixture CRM of the tests on loopback with the preset's own rate limit (7 requests a
 * second), a SQLite store in a temp folder, the engine as the daemon wires it. Nothing is shortened: the leads
 * arrive at random moments over `--minutes` (default 3), so the run takes that plus at most two passes.
 * Usage: npm run bench:leads [-- --leads 100 --minutes 3]
 */
import '../src/connectors/serve-contract'; // first: the fixtures and the connector import tracker-sync/connector
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CronJob } from 'cron';
import { ConnectionConfig, SyncOptionsConfig, TrackerSyncConfig } from '../src/config/config.schema';
import { loadConnectors } from '../src/connectors/plugin-loader';
import { createSyncService } from '../src/engine/engine-parts';
import { createSandboxApp } from '../src/sandbox/sandbox-app';
import { SandboxInfo } from '../src/sandbox/sandbox-info';
import { createStoreDataSource } from '../src/store/store-data-source';
import { TrackerClient } from '../src/tracker/tracker-client';
import * as amocrm from '../test/fixtures/crm/amocrm';
import { startCrmServer } from '../test/fixtures/crm/crm-fixture-server';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const LEADS = option('--leads', 100);
const MINUTES = option('--minutes', 3);
const LEAD_ID_FIELD = '407';

const quiet = { log: () => {}, warn: () => {}, error: (m: string) => console.error(m), debug: () => {} };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const sandbox = await createSandboxApp({ db: ':memory:', seed: 'demo', apiKey: 'bench-leads', budget: 'off' }, { prefix: 'api/v1' });
  await sandbox.listen(0, '127.0.0.1');
  const info = sandbox.get(SandboxInfo).getSandboxInfo();
  const serviceUrl = `${await sandbox.getUrl()}/api/v1`;
  const crm = amocrm.createCrm();
  const server = await startCrmServer(crm.handler);
  const dir = mkdtempSync(join(tmpdir(), 'bench-leads-'));
  const serviceCalls = new Map<string, number>();
  const tracker = new TrackerClient({
    baseUrl: serviceUrl, apiKey: info.apiKey, project: String(info.projectId), rateLimit: 'off', retries: 2, timeoutMs: 10_000,
    onRequest: (event) => serviceCalls.set(event.operation, (serviceCalls.get(event.operation) ?? 0) + 1),
  });
  const store = await createStoreDataSource({ dataDir: dir });
  const registry = await loadConnectors([], quiet);
  // the preset's own rate limit (the fixture's settings raise it for the tests)
  const { rate_limit: _fast, ...settings } = amocrm.settings(server.url);
  const connection = Object.assign(new ConnectionConfig(), {
    id: 'bench-leads', connector: 'generic-crm',
    settings: { ...settings, lead_delivery: { lead_id_field: 'ID заявки', pipeline: 'Продажи', title: '{{title}}: {{name}}', fields: { 'Комментарий': '{{text}}' } } },
  });
  connection.sync = new SyncOptionsConfig();
  const config = new TrackerSyncConfig();
  config.data_dir = dir;
  config.tracker.rate_limit = 'off';
  config.connections = [connection];
  const engine = createSyncService(store, tracker, registry, config, quiet, { workDir: join(dir, 'work') });
  const schedule = engine.outboundPlan(connection.id, 'leads')!.schedule!;

  // the scheduler's job: a pass on each tick of lead_delivery.schedule (its default, every minute)
  let passes = 0;
  const job = CronJob.from({
    cronTime: schedule,
    start: true,
    onTick: async () => {
      try {
        const { done } = await engine.outbound(connection.id, 'leads', 'schedule');
        const summary = await done;
        passes += 1;
        if (summary.status !== 'succeeded') console.error(`pass ${summary.runId}: ${summary.status} ${summary.error ?? ''}`);
      } catch (error) {
        console.error(`tick skipped: ${(error as Error).message}`);
      }
    },
  });

  console.log(`lead delivery: ${LEADS} proxy leads over ${MINUTES} min, schedule "${schedule}", amoCRM fixture at its preset's rate limit`);
  const createdAt = new Map<string, number>();
  const started = Date.now();
  const crmBefore = server.requests.length;
  const moments = Array.from({ length: LEADS }, () => Math.random() * MINUTES * 60_000).sort((a, b) => a - b);
  for (const [index, moment] of moments.entries()) {
    const wait = started + moment - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = Date.now();
    const answer = await fetch(`${serviceUrl}/project/proxy-leads/add?project=${info.projectId}`, {
      method: 'POST', headers: { 'Api-key': info.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: `Заявка ${index}`, name: `Клиент ${index}`, phone: `+7 900 ${String(1_000_000 + index).slice(1)}`, email: '', text: 'bench', tracker: String(1_000_001 + index) }),
    });
    const body = (await answer.json()) as { id: string };
    createdAt.set(String(body.id), at);
  }

  // every lead's deal: the arrival of the create that carries its id in lead_id_field
  const delivered = new Map<string, number>();
  const deadline = Date.now() + 3 * 60_000;
  while (delivered.size < LEADS && Date.now() < deadline) {
    for (const request of server.requests) {
      if (request.method !== 'POST' || request.path !== '/api/v4/leads' || !Array.isArray(request.body)) continue;
      for (const lead of request.body as { custom_fields_values?: { field_id: number; values: { value: string }[] }[] }[]) {
        const id = lead.custom_fields_values?.find((f) => String(f.field_id) === LEAD_ID_FIELD)?.values[0]?.value;
        if (id && createdAt.has(String(id)) && !delivered.has(String(id))) delivered.set(String(id), request.at);
      }
    }
    if (delivered.size < LEADS) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await job.stop();
  while (engine.activeRuns().length) await new Promise((resolve) => setTimeout(resolve, 200));

  const latencies = [...delivered].map(([id, at]) => (at - createdAt.get(id)!) / 1000).sort((a, b) => a - b);
  const crmRequests = server.requests.slice(crmBefore);
  const byRoute = new Map<string, number>();
  for (const r of crmRequests) byRoute.set(`${r.method} ${r.path}`, (byRoute.get(`${r.method} ${r.path}`) ?? 0) + 1);
  const serviceTotal = [...serviceCalls.values()].reduce((a, b) => a + b, 0);
  console.log(`delivered: ${delivered.size}/${LEADS} leads in ${passes} passes (${((Date.now() - started) / 60_000).toFixed(1)} min)`);
  console.log(`time from proxy lead creation to CRM deal: p50 ${percentile(latencies, 50).toFixed(1)} s · p95 ${percentile(latencies, 95).toFixed(1)} s · max ${latencies[latencies.length - 1].toFixed(1)} s`);
  console.log(`requests per lead: CRM ${(crmRequests.length / LEADS).toFixed(2)} (${crmRequests.length} in all: ${[...byRoute].map(([route, n]) => `${route} ${n}`).join(', ')})`);
  console.log(`                   service ${(serviceTotal / LEADS).toFixed(2)} (${serviceTotal} in all: ${[...serviceCalls].map(([op, n]) => `${op} ${n}`).join(', ')})`);

  await engine.shutdown(5_000);
  await tracker.close();
  await store.destroy();
  await server.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
  if (delivered.size < LEADS) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
