/**
 * The request budget in cluster mode (rate-limiter-flexible on a real Redis): three processes drawing from one
 * project's budget at once never exceed per_second in any sliding second nor per_hour in all, and a second project
 * is not charged for the first's requests. Each process is a real node process with its own Redis connection.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startRedis, RedisServer } from '../../bench/redis-server';
import { BudgetLimiters } from '../../src/budget/budget-limiters';
import { SharedRequestBudget } from '../../src/budget/shared-request-budget';
import { createRedis } from '../../src/redis/redis-connection';
import { busiestWindow } from '../support/arrival-windows';
import { ROOT } from '../support/node-entry';
import { buildIfStale } from './support/processes';

const dist = (file: string) => JSON.stringify(join(ROOT, 'dist', 'src', file));

/** One process: takes `count` requests from the budget at once, prints the instants they were let through. */
const WORKER = `
const { setMaxListeners } = require('node:events');
const { BudgetLimiters } = require(${dist('budget/budget-limiters.js')});
const { SharedRequestBudget } = require(${dist('budget/shared-request-budget.js')});
const { createRedis } = require(${dist('redis/redis-connection.js')});
const [url, scope, perSecond, perHour, count, deadlineMs] = process.argv.slice(1);
(async () => {
  const limiters = BudgetLimiters.redis(createRedis(url), true);
  const budget = new SharedRequestBudget(limiters, scope, { per_second: Number(perSecond), per_hour: Number(perHour) });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  setTimeout(() => stop.abort(), Number(deadlineMs)).unref();
  const times = await Promise.all(Array.from({ length: Number(count) }, () => budget.take(null, stop.signal).then(() => Date.now(), () => null)));
  process.stdout.write(JSON.stringify(times.filter((t) => t !== null)));
  await limiters.close();
})().catch((e) => { console.error(e); process.exit(1); });
`;

function draw(redis: RedisServer, scope: string, perSecond: number, perHour: number, count: number, deadlineMs: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', WORKER, redis.url, scope, String(perSecond), String(perHour), String(count), String(deadlineMs)], { timeout: deadlineMs + 20_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as number[]),
    );
  });
}

describe('cluster mode: one request budget in Redis for three processes', () => {
  jest.setTimeout(90_000);
  let redis: RedisServer;

  beforeAll(async () => {
    buildIfStale();
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("never exceeds the project's 10 requests in any sliding second, whatever the number of processes", async () => {
    const times = (await Promise.all([1, 2, 3].map(() => draw(redis, '1@http://service/api/v1', 10, 5000, 25, 30_000)))).flat();
    expect(times).toHaveLength(75);
    console.log(`three processes: ${times.length} requests, busiest sliding second ${busiestWindow(times, 1000)}, ${(times.length / ((Math.max(...times) - Math.min(...times)) / 1000)).toFixed(2)}/s`);
    expect(busiestWindow(times, 1000)).toBeLessThanOrEqual(10);
    // and not far below it: the grid of 110 ms (the margin of rate-spacing.ts) lets 9 a second through
    const span = (Math.max(...times) - Math.min(...times)) / 1000;
    expect(times.length / span).toBeGreaterThan(8);
  });

  it('lets per_hour through in all, across the processes, and no more', async () => {
    const times = (await Promise.all([1, 2, 3].map(() => draw(redis, '2@http://service/api/v1', 100, 25, 15, 4_000)))).flat();
    expect(times).toHaveLength(25);
  });

  it("charges one project's budget only: another project of the same processes goes at once", async () => {
    await Promise.all([1, 2, 3].map(() => draw(redis, '3@http://service/api/v1', 100, 6, 2, 2_000)));
    const started = Date.now();
    const [spent, other] = await Promise.all([draw(redis, '3@http://service/api/v1', 100, 6, 1, 2_000), draw(redis, '4@http://service/api/v1', 100, 6, 6, 5_000)]);
    expect(spent).toEqual([]);
    expect(other).toHaveLength(6);
    expect(Math.max(...other) - started).toBeLessThan(3_000);
  });

  it('fails a request at once while Redis is away (the run ends at its checkpoint), and draws again when it is back', async () => {
    const own = await startRedis();
    const limiters = BudgetLimiters.redis(createRedis(own.url), true);
    try {
      const budget = new SharedRequestBudget(limiters, '5@http://service/api/v1', { per_second: 10, per_hour: 5000 });
      const signal = new AbortController().signal;
      await budget.take(null, signal);
      const port = own.port;
      await own.stop();
      const started = Date.now();
      await expect(budget.take(null, signal)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
      const again = await startRedis(port);
      try {
        await budget.take(null, signal); // ioredis reconnected by itself
      } finally {
        await again.stop();
      }
    } finally {
      await limiters.close();
    }
  });
});
