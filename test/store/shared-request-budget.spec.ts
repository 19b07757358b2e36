/**
 * The project's request budget (rate-limiter-flexible) kept where every process finds it: two processes (two
 * connections to one store) drawing from it together keep to one per-second spacing, the hour's count survives a
 * restart, and a 429 makes every sender wait and spaces the requests twice as far apart for a while. Real stores:
 * an SQLite file, PostgreSQL when configured, a Redis server (cluster mode).
 */
import { mkdtempSync, rmSync } from 'fs';
import { setMaxListeners } from 'events';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import Redis from 'ioredis';
import { startRedis, RedisServer } from '../../bench/redis-server';
import { BudgetLimiters } from '../../src/budget/budget-limiters';
import { budgetStoreOf } from '../../src/store/budget-store';
import { budgetScope, SharedRequestBudget } from '../../src/budget/shared-request-budget';
import { createRedis } from '../../src/redis/redis-connection';
import { createStoreDataSource, StoreOptions } from '../../src/store/store-data-source';
import { busiestWindow } from '../support/arrival-windows';
import { describeStores, StoreDriver, storeOptionsFor } from '../support/store-drivers';

const SCOPE = budgetScope('http://127.0.0.1:1/api/v1', '7');

/** Takes `count` requests at once from `budget`, resolving with the instant each was let through. */
async function draw(budget: SharedRequestBudget, count: number, signal = unlimitedSignal()): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => budget.take(null, signal).then(() => Date.now())));
}

/** A signal many requests wait on at once, as the client's. */
function unlimitedSignal(): AbortSignal {
  const { signal } = new AbortController();
  setMaxListeners(0, signal);
  return signal;
}


/** The stores' suites, and the same on Redis (cluster mode). */
function describeBackends(name: string, body: (backend: StoreDriver | 'redis') => void): void {
  describeStores(name, body);
  describe(`${name} [redis]`, () => body('redis'));
}

describeBackends('shared request budget', (backend) => {
  jest.setTimeout(30_000);
  let dir: string;
  let options: StoreOptions;
  let cleanup: () => Promise<void>;
  let redis: RedisServer | undefined;
  const open: (DataSource | BudgetLimiters)[] = [];

  /** What one process opens: its own connection to the store (or Redis), and the limiters on it. */
  async function process(): Promise<BudgetLimiters> {
    if (backend === 'redis') {
      const limiters = BudgetLimiters.redis(createRedis(redis!.url), true);
      open.push(limiters);
      return limiters;
    }
    const ds = await createStoreDataSource(options);
    const limiters = await BudgetLimiters.store(budgetStoreOf(ds));
    open.push(limiters, ds);
    return limiters;
  }

  /** The process stops: its connections close (what it drew stays in the store). */
  async function stopAll(): Promise<void> {
    for (const o of open.splice(0)) {
      if (o instanceof BudgetLimiters) await o.close();
      else if (o.isInitialized) await o.destroy();
    }
  }

  beforeAll(async () => {
    if (backend === 'redis') redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'budget-test-'));
    if (backend === 'redis') {
      const admin = new Redis(redis!.url);
      await admin.flushall();
      await admin.quit();
      cleanup = async () => undefined;
    } else {
      ({ options, cleanup } = await storeOptionsFor(backend, dir));
    }
  });
  afterEach(async () => {
    await stopAll();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its counters where the backend says: the store, or Redis', async () => {
    expect((await process()).kind).toBe(backend);
  });

  it('spaces the requests of two processes as one: per_second across both, in any sliding second', async () => {
    const limits = { per_second: 20, per_hour: 10_000 };
    const a = new SharedRequestBudget(await process(), SCOPE, limits);
    const b = new SharedRequestBudget(await process(), SCOPE, limits);
    const started = Date.now();
    const times = (await Promise.all([draw(a, 30), draw(b, 30)])).flat();
    // 60 requests at 20/s: the first goes at once, the last ~3.2 s later (spaced with the margin)
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_950);
    expect(busiestWindow(times, 1000)).toBeLessThanOrEqual(20);
    expect(a.stats().waitSecondsTotal + b.stats().waitSecondsTotal).toBeGreaterThan(30);
  });

  it('keeps the hour across a restart: a new process finds the hour spent and waits', async () => {
    const limits = { per_second: 100, per_hour: 12 };
    const first = new SharedRequestBudget(await process(), SCOPE, limits);
    await draw(first, 8);
    await stopAll(); // the process stops

    const second = new SharedRequestBudget(await process(), SCOPE, limits);
    await draw(second, 4); // what is left of the hour
    expect(second.stats().remaining.hour).toBe(0);
    const stop = new AbortController();
    const late = second.take(null, stop.signal).then(() => 'sent', () => 'aborted');
    await new Promise((r) => setTimeout(r, 700));
    expect(second.stats().waiting).toBe(1);
    stop.abort();
    expect(await late).toBe('aborted');
  });

  it('another budget (project) is not charged', async () => {
    const store = await process();
    const limits = { per_second: 100, per_hour: 3 };
    await draw(new SharedRequestBudget(store, SCOPE, limits), 3);
    const other = new SharedRequestBudget(store, budgetScope('http://127.0.0.1:1/api/v1', '8'), limits);
    const started = Date.now();
    await draw(other, 3);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('after a 429 every process waits the Retry-After, then goes at half the pace for a while', async () => {
    const limits = { per_second: 20, per_hour: 10_000 };
    const a = new SharedRequestBudget(await process(), SCOPE, limits);
    const b = new SharedRequestBudget(await process(), SCOPE, limits);
    await draw(a, 1);
    const penalized = Date.now();
    await a.penalize(600);
    const times = await draw(b, 6);
    expect(Math.min(...times) - penalized).toBeGreaterThanOrEqual(580);
    const sorted = times.sort((x, y) => x - y);
    // 110 ms apart instead of 55 while the shrink lasts: five gaps take 550 ms, not 275 (the bound leaves room for a
    // first request let through late on a loaded machine: 476 ms was seen in a clean-clone CI)
    expect(sorted[5] - sorted[0]).toBeGreaterThanOrEqual(400);
  });

  it('spaces an operation of the Limits table across processes', async () => {
    const limits = { per_second: 100, per_hour: 10_000 };
    const a = new SharedRequestBudget(await process(), SCOPE, limits);
    const b = new SharedRequestBudget(await process(), SCOPE, limits);
    const visitList = { key: 'visits.list', perSecond: 1, perMinute: 150 }; // 1 s apart
    const signal = new AbortController().signal;
    const started = Date.now();
    const times = await Promise.all([a, b, a].map((budget) => budget.take(visitList, signal).then(() => Date.now() - started)));
    const sorted = times.sort((x, y) => x - y);
    expect(sorted[1] - sorted[0]).toBeGreaterThanOrEqual(1000);
    expect(sorted[2] - sorted[1]).toBeGreaterThanOrEqual(1000);
  });
});
