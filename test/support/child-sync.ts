/**
 * A sync in a child process, for crash and two-process tests. Imports only what a run needs.
 * env: DATA_DIR, BASE_URL, DEALS, API_KEY, BATCH_SIZE, CONCURRENCY, GO_FILE (wait for it before starting)
 */
import { existsSync } from 'fs';
import { createSyncService } from '../../src/engine/engine-parts';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { connectionConfig, memoryRegistry, trackerSyncConfig } from './engine-harness';
import { makeDeals, memorySource } from './memory-connector';
import { TrackerClient } from '../../src/tracker/tracker-client';

async function main(): Promise<void> {
  const env = process.env;
  const source = memorySource('child', { pageSize: 1000 });
  source.deals = makeDeals(Number(env.DEALS ?? 20000));
  const dataSource = await createStoreDataSource({ dataDir: env.DATA_DIR! });
  const tracker = new TrackerClient({ baseUrl: env.BASE_URL!, apiKey: env.API_KEY ?? 'child', project: '1', rateLimit: 'off', retries: 3, retryBaseMs: 20 });
  const config = trackerSyncConfig(env.DATA_DIR!, [connectionConfig('demo', 'child')], Number(env.BATCH_SIZE ?? 500), Number(env.CONCURRENCY ?? 4));
  const quiet = { log: () => undefined, warn: () => undefined, error: (m: string) => process.stderr.write(m + '\n') };
  const sync = createSyncService(dataSource, tracker, memoryRegistry(), config, quiet);
  await sync.recoverInterruptedRuns();
  process.stdout.write('ready\n');
  while (env.GO_FILE && !existsSync(env.GO_FILE)) await new Promise((r) => setTimeout(r, 5));
  try {
    const { runId, done } = await sync.start('demo', { mode: 'incremental', trigger: 'cli' });
    process.stdout.write(`started ${runId}\n`);
    const summary = await done;
    process.stdout.write(`result ${JSON.stringify({ status: summary.status, runId, error: summary.error })}\n`);
  } catch (e) {
    process.stdout.write(`result ${JSON.stringify({ refused: (e as Error).name, runId: (e as { runId?: number }).runId ?? null })}\n`);
  }
  await tracker.close();
  await dataSource.destroy();
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + '\n');
  process.exit(1);
});
