import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { InProcessSandbox } from '../faults/support/sheet-sync';
import { api, RunJson, RunningDaemon, startDaemon, tempDir } from '../daemon/daemon-harness';
import * as amocrm from '../fixtures/crm/amocrm';
import * as bitrix24 from '../fixtures/crm/bitrix24';
import { CrmServer, FixtureHandler, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { WritableCrm } from '../fixtures/crm/crm-writes';
import * as hubspot from '../fixtures/crm/hubspot';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { TrackerClient } from '../../src/tracker/tracker-client';

export const ADMIN_TOKEN = 'webhooks-admin-token';
export const PUBLIC_URL = 'https://sync.example.com';
export const PRESETS = { amocrm, bitrix24, pipedrive, hubspot } as const;
export type PresetName = keyof typeof PRESETS;

export interface HookConnection {
  id: string;
  preset: PresetName;
  secret: string;
  crm: WritableCrm;
  server: CrmServer;
  /** extra keys of the connection (webhook overrides, settings overrides) */
  settings?: Record<string, unknown>;
  debounce?: string;
}

/**
 * The real daemon (createDaemonApp, port 0) syncing fixture CRMs into an in-process sandbox (demo seed: visits
 * 1000001…), each connection with `webhook:` settings. Runs are read over the admin API.
 */
export class WebhookDaemon {
  private constructor(
    readonly daemon: RunningDaemon,
    readonly sandbox: InProcessSandbox,
    readonly project: string,
    readonly connections: Map<string, HookConnection>,
    private readonly dir: { remove(): void },
    /** the daemon's config file (the CLI runs beside the daemon with it) */
    readonly configFile: string,
  ) {}

  static async start(specs: { id: string; preset: PresetName; settings?: Record<string, unknown>; debounce?: string; crm?: WritableCrm }[], options: { wrap?: (id: string, handler: FixtureHandler) => FixtureHandler } = {}): Promise<WebhookDaemon> {
    const dir = tempDir('webhooks');
    const sandbox = await InProcessSandbox.start();
    // the demo seed's project: its visits 1000001… exist, so orders on them are saved
    const project = '1';
    const connections = new Map<string, HookConnection>();
    for (const spec of specs) {
      const crm = spec.crm ?? PRESETS[spec.preset].createCrm({});
      const handler = options.wrap ? options.wrap(spec.id, crm.handler) : crm.handler;
      const server = await startCrmServer(handler);
      connections.set(spec.id, { ...spec, crm, server, secret: `hook-secret-${spec.id}-7f3a9c` });
    }
    const configFile = join(dir.path, 'config.yaml');
    writeFileSync(configFile, stringify({
      server: { port: 0, public_url: PUBLIC_URL },
      data_dir: join(dir.path, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project, rate_limit: 'off', retries: 1, timeout_ms: 10_000 },
      log: { level: 'info', format: 'json' },
      connections: [...connections.values()].map((c) => ({
        id: c.id,
        connector: 'generic-crm',
        settings: { ...PRESETS[c.preset].settings(c.server.url), ...(c.settings ?? {}) },
        webhook: { secret: c.secret, debounce: c.debounce ?? '1s' },
      })),
    }));
    const daemon = await startDaemon({ ADMIN_TOKEN }, configFile);
    return new WebhookDaemon(daemon, sandbox, project, connections, dir, configFile);
  }

  get url(): string {
    return this.daemon.url;
  }

  connection(id: string): HookConnection {
    return this.connections.get(id)!;
  }

  async runs(connection: string): Promise<RunJson[]> {
    const { status, body } = await api<{ runs: RunJson[] }>(this.url, ADMIN_TOKEN, `/api/runs?connection=${encodeURIComponent(connection)}&limit=100`);
    if (status !== 200) throw new Error(`GET /api/runs answered ${status}`);
    return [...body.runs].sort((a, b) => a.id - b.id);
  }

  /** Waits until `probe` holds (polling every 50 ms). */
  async until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** An admin-triggered run, waited for. */
  async syncNow(connection: string, mode: 'incremental' | 'full' = 'incremental'): Promise<RunJson> {
    const path = mode === 'full' ? `/api/connections/${connection}/resync` : `/api/connections/${connection}/sync`;
    const started = await api<{ run_id: number }>(this.url, ADMIN_TOKEN, path, { method: 'POST', body: '{}' });
    if (started.status !== 202) throw new Error(`${path} answered ${started.status}: ${JSON.stringify(started.body)}`);
    return this.finished(connection, started.body.run_id);
  }

  async finished(connection: string, runId: number, timeoutMs = 60_000): Promise<RunJson> {
    return this.until(async () => (await this.runs(connection)).find((r) => r.id === runId && r.status !== 'running'), timeoutMs, `run ${runId} finished`);
  }

  /** The service's order of a deal: its visit. */
  async orderVisit(dealId: string): Promise<string | null | undefined> {
    const client = this.sandbox.client(this.project);
    try {
      const page = await client.orders.list({ limit: 10, offset: 0, filters: [['id', '=', dealId]], extend: ['visit'] } as never);
      const order = page.data.find((o) => o.id === dealId);
      return order ? (order.visit_id ?? (order.visit ? String(order.visit.id) : null)) : undefined;
    } finally {
      await client.close();
    }
  }

  async metric(connection: string, outcome: string): Promise<number> {
    const res = await fetch(`${this.url}/metrics`);
    const text = await res.text();
    const line = text.split('\n').find((l) => l.startsWith(`tracker_sync_webhooks_total{connection="${connection}",outcome="${outcome}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  output(): string {
    return this.daemon.output.text();
  }

  async stop(): Promise<void> {
    await this.daemon?.stop();
    for (const c of this.connections.values()) await c.server.close();
    await this.sandbox?.close();
    this.dir.remove();
  }
}

export type { TrackerClient };
