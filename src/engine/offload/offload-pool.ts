import { availableParallelism } from 'os';
import { join } from 'path';
import { Piscina } from 'piscina';

/**
 * The process's worker threads for reads (piscina): one stream's read is one task, held for the stream's whole
 * read. Made on first use, one pool per thread count; idle threads end after a few seconds, so a CLI run exits.
 */
const pools = new Map<number, Piscina>();

/**
 * Run from the TypeScript sources (ts-node, jest), a read thread would compile the engine again for itself,
 * seconds of CPU per process: there reads stay in-thread unless tracker.workers asks for threads.
 */
const FROM_SOURCES = __filename.endsWith('.ts');

/** tracker.workers, or by default one thread when the machine has more than one core (else 0: in-thread). */
export function workerThreads(setting: number | undefined): number {
  return setting ?? (!FROM_SOURCES && availableParallelism() > 1 ? 1 : 0);
}

export function readPool(threads: number): Piscina {
  let pool = pools.get(threads);
  if (!pool) {
    pool = new Piscina({
      filename: workerFile(),
      name: 'readStream',
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 2_000,
      // a young generation of 16 MB: 8 MB doubled the thread's collections (1.9 s of 6.7 s in a 200,000-deal read), 32 MB cost 15 MB of RSS for ~5 % of CPU
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 96 },
    });
    pools.set(threads, pool);
  }
  return pool;
}

/** A task that only loads the connector's module on a thread: the thread is up when a read asks for it. */
export function warmReadThread(threads: number, connectorModule: string): void {
  readPool(threads)
    .run({ warm: connectorModule })
    .catch(() => undefined); // a module that fails to load says so when a read needs it
}

/** Ends every pool's threads once their reads are done (the app's shutdown; a later read makes a new pool). */
export async function closeReadPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.close()));
}

/** dist/: the compiled read-worker.js beside this file; under ts-jest the sources, through read-worker-ts.js. */
function workerFile(): string {
  return join(__dirname, __filename.endsWith('.ts') ? 'read-worker-ts.js' : 'read-worker.js');
}
