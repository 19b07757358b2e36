/**
 * Child processes of the cluster tests: the daemon (src/main) and the standalone sandbox, run from the
 * compiled dist/ when it is newer than every source file (fast start), else under ts-node (transpile only);
 * and the start-up the multi-daemon suites share: one sandbox as the service, N daemons on one store.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { isFresh, ROOT } from '../../support/node-entry';
import { freePort, Proc, spawnEntry } from '../../support/spawn-entry';

export { Proc, spawnEntry } from '../../support/spawn-entry';

/** Compiles src/ and connectors/ into dist/ (incremental) unless dist/ is newer than every source. */
export function buildIfStale(): void {
  if (isFresh(join(ROOT, 'dist', 'src', 'main.js'))) return;
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe', timeout: 150_000 });
  } catch {
    // type errors elsewhere in the tree: spawnEntry falls back to ts-node when dist/ is still not fresh
  }
}

export interface Daemon {
  proc: Proc;
  url: string;
  pid: number;
}

export interface DaemonsOptions {
  /** the suite's temp dir: the config, the sandbox's database and each daemon's data_dir go there */
  dir: string;
  /** the PostgreSQL store (DATABASE_URL of every daemon) */
  storeUrl: string;
  daemons: number;
  /** the sandbox's API key and the latency of each of its answers */
  apiKey: string;
  latencyMs: number;
  /** the config file of every daemon, given the sandbox's base URL */
  config: (sandboxUrl: string) => string;
  /** the project the sandbox creates first (its id is checked) */
  project: string;
}

export interface Daemons {
  sandbox: Proc;
  sandboxUrl: string;
  daemons: Daemon[];
  /** the daemons' store, for reading its rows */
  store: DataSource;
  /** Stops every process, keeps their output in $TMPDIR/tracker-sync-<suite>-last, closes the store. */
  stop(suite: string): Promise<void>;
}

/** The sandbox and the daemons start at once (the daemons do not call the service before their first run). */
export async function startDaemons(o: DaemonsOptions): Promise<Daemons> {
  buildIfStale();
  const port = await freePort();
  const sandboxUrl = `http://127.0.0.1:${port}/api/v1`;
  writeFileSync(join(o.dir, 'config.yaml'), o.config(sandboxUrl));
  const sandbox = spawnEntry('sandbox', 'sandbox/standalone', ['--port', String(port), '--db', join(o.dir, 'sandbox.sqlite'), '--budget', 'off', '--seed', 'none', '--api-key', o.apiKey, '--latency', String(o.latencyMs)], {});
  const procs = Array.from({ length: o.daemons }, (_, i) =>
    spawnEntry(`daemon-${i + 1}`, 'main', ['--config', join(o.dir, 'config.yaml')], { DATA_DIR: join(o.dir, `data-${i + 1}`), DATABASE_URL: o.storeUrl, PORT: '0' }),
  );
  const daemons: Daemon[] = [];
  let store: DataSource | undefined;
  const stop = async (suite: string) => {
    await Promise.all(procs.map((p) => p.stop()));
    await sandbox.stop();
    keepLogs(suite, [sandbox, ...procs]);
    if (store?.isInitialized) await store.destroy();
  };
  try {
    const project = (await sandbox.waitFor(/project: (\d+)/, 90_000))[1];
    if (project !== o.project) throw new Error(`the sandbox's first project is ${project}, not ${o.project}`);
    for (const proc of procs) {
      const url = (await proc.waitFor(/tracker-sync listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000))[1];
      daemons.push({ proc, url, pid: proc.proc.pid! });
    }
    store = await new DataSource({ type: 'postgres', url: o.storeUrl, extra: { max: 2 } }).initialize();
  } catch (error) {
    await stop('start-up');
    throw error;
  }
  return { sandbox, sandboxUrl, daemons, store, stop };
}

/** The processes' output of the last run, for a failure's post-mortem. */
export function keepLogs(suite: string, procs: (Proc | undefined)[]): void {
  const logs = join(tmpdir(), `tracker-sync-${suite}-last`);
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  for (const p of procs) if (p) writeFileSync(join(logs, `${p.name}.log`), p.output());
}
