/**
 * What the multi-daemon suites (test/cluster/queue-*.spec.ts, cluster-mode-daemons, three-daemons) share: sources of deals, the config of N
 * connections with `cluster.redis`, the admin API, the store's run rows, and the processes' logs.
 */
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { sql } from '../../support/store-drivers';

export { keepLogs } from './processes';

export const ADMIN_TOKEN = 'queue-cluster-admin-token-8d1f';
export const API_KEY = 'queue-cluster-sandbox-key-27c4';
export const WEBHOOK_SECRET = 'queue-cluster-hook-secret-6b0e';
/** the first project of a fresh sandbox database */
export const PROJECT = '1';

export interface RunRow {
  id: number;
  connection_id: string;
  holder: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  trigger: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const pidOf = (run: RunRow) => Number(run.holder.split(':')[1]);

/**
 * `count` deals of a connection's JSON-lines source, numbered from `first`; updated in March 2025, or at `at`
 * (deals added later, that an incremental run reads: its window ends when it starts).
 */
export function dealsFile(connection: string, count: number, first = 1, at?: Date): string {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    const updated = (at ?? new Date(Date.UTC(2025, 2, 10, 9, 0, i))).toISOString();
    return JSON.stringify({ type: 'deal', id: `${connection}-d${n}`, title: `Deal ${n}`, created_at: updated, updated_at: updated, status: '0', price: 100 + i });
  }).join('\n') + '\n';
}

export interface ClusterConfigOptions {
  dir: string;
  sandboxUrl: string;
  /** cluster.redis; without it the daemons share the work by the store's leases (lease mode) */
  redisUrl?: string;
  /** scheduled connections */
  scheduled: string[];
  schedule: string;
  /** connections without a schedule */
  manual?: string[];
  /** cluster.stalled_after (default 30s) */
  stalledAfter?: string;
  /** a connection taking webhooks (path_secret) */
  webhook?: { id: string; debounce: string };
}

export function clusterConfigYaml(o: ClusterConfigOptions): string {
  const connection = (id: string, extra: string[]) =>
    [`  - id: ${id}`, '    connector: example-custom', ...extra, `    settings: { path: ${JSON.stringify(join(o.dir, `${id}.jsonl`))}, page_size: 20 }`].join('\n');
  return [
    'server: { host: 127.0.0.1, port: 0 }',
    `tracker: { base_url: ${JSON.stringify(o.sandboxUrl)}, api_key: ${API_KEY}, project: "${PROJECT}", batch_size: 10, concurrency: 1, retries: 8, timeout_ms: 15000, rate_limit: "off" }`,
    `admin: { token: ${ADMIN_TOKEN} }`,
    'log: { level: info, format: json }',
    ...(o.redisUrl ? [`cluster: { redis: ${JSON.stringify(o.redisUrl)}${o.stalledAfter ? `, stalled_after: ${o.stalledAfter}` : ''} }`] : []),
    'connections:',
    ...o.scheduled.map((id) => connection(id, [`    schedule: "${o.schedule}"`])),
    ...(o.manual ?? []).map((id) => connection(id, [])),
    ...(o.webhook ? [connection(o.webhook.id, [`    webhook: { secret: ${WEBHOOK_SECRET}, debounce: ${o.webhook.debounce}, verify: { type: path_secret } }`])] : []),
    '',
  ].join('\n');
}

export async function api(url: string, method: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

export function runsOf(store: DataSource): Promise<RunRow[]> {
  return sql<RunRow[]>(store, `SELECT id, connection_id, holder, status, started_at, finished_at, trigger FROM run ORDER BY id`);
}

/** Pairs of runs of one connection whose times overlap (a run ends after the next one began). */
export function overlapping(runs: RunRow[]): [RunRow, RunRow][] {
  const found: [RunRow, RunRow][] = [];
  const byConnection = new Map<string, RunRow[]>();
  for (const run of runs) byConnection.set(run.connection_id, [...(byConnection.get(run.connection_id) ?? []), run]);
  for (const list of byConnection.values()) {
    const sorted = [...list].sort((a, b) => a.started_at.localeCompare(b.started_at));
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1];
      if (!before.finished_at || before.finished_at > sorted[i].started_at) found.push([before, sorted[i]]);
    }
  }
  return found;
}

