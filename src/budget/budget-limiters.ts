import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, RateLimiterSQLite } from 'rate-limiter-flexible';
import * as sqlite3 from 'sqlite3';
import type { BudgetStoreHandle } from '../store/budget-store';

/** The table rate-limiter-flexible keeps its counters in, in the store (created by a migration, not by each process). */
export const RATE_LIMITS_TABLE = 'rate_limits';

/** What the budgets use of a rate-limiter-flexible limiter. */
export interface Limiter {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  get(key: string): Promise<RateLimiterRes | null>;
  set(key: string, points: number, secDuration: number): Promise<RateLimiterRes>;
  block(key: string, secDuration: number): Promise<RateLimiterRes>;
}

/** Where the budgets' counters live; decides what shares them. */
export type BudgetStoreKind = 'redis' | 'postgres' | 'sqlite' | 'memory';

/**
 * rate-limiter-flexible limiters on the store every process of the installation shares: Redis in cluster mode,
 * else the daemon's own store (the PostgreSQL database, or the SQLite file the CLI and the daemon share), memory
 * only where nothing is shared (an in-memory store). One instance per process; `close()` on shutdown.
 */
export class BudgetLimiters {
  private constructor(
    readonly kind: BudgetStoreKind,
    private readonly make: (keyPrefix: string, points: number, duration: number) => Limiter,
    private readonly closeStore: () => Promise<void>,
  ) {}

  static redis(client: Redis, closeClient = false): BudgetLimiters {
    return new BudgetLimiters(
      'redis',
      (keyPrefix, points, duration) => new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration }),
      async () => {
        if (closeClient) await client.quit().catch(() => client.disconnect());
      },
    );
  }

  /** The daemon's store: its PostgreSQL pool, or a connection of its own to the SQLite file (kept out of TypeORM's transactions). */
  static async store(store: BudgetStoreHandle): Promise<BudgetLimiters> {
    if (store.kind === 'postgres') {
      const pool = store.pool;
      return new BudgetLimiters(
        'postgres',
        (keyPrefix, points, duration) =>
          new RateLimiterPostgres({ storeClient: pool, storeType: 'pool', tableName: RATE_LIMITS_TABLE, tableCreated: true, keyPrefix, points, duration }),
        async () => undefined,
      );
    }
    if (store.kind === 'memory') return BudgetLimiters.memory();
    const db = await openSqlite(store.file);
    const queue = new OneAtATime(store.serialize);
    return new BudgetLimiters(
      'sqlite',
      (keyPrefix, points, duration) =>
        queue.wrap(new RateLimiterSQLite({ storeClient: db, storeType: 'sqlite3', tableName: RATE_LIMITS_TABLE, tableCreated: true, keyPrefix, points, duration })),
      () => new Promise<void>((resolve) => db.close(() => resolve())),
    );
  }

  static memory(): BudgetLimiters {
    return new BudgetLimiters('memory', (keyPrefix, points, duration) => new RateLimiterMemory({ keyPrefix, points, duration }), async () => undefined);
  }

  /** A fixed-window limiter of `points` per `duration` seconds (whole seconds: Redis keeps no less). */
  limiter(name: string, points: number, duration: number): Limiter {
    if (!Number.isInteger(duration) || duration < 1) throw new RangeError(`budget limiter ${name}: duration must be whole seconds, got ${duration}`);
    return this.make(`budget:${name}`, points, duration);
  }

  close(): Promise<void> {
    return this.closeStore();
  }

  /** Nest calls it when the process stops (the provider in app.module.ts). */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** A key of a budget's scope that fits the store's key column whatever the length of the URL. */
export function limiterKey(scope: string): string {
  return scope.length <= 120 ? scope : `${scope.slice(0, 60)}#${createHash('sha256').update(scope).digest('hex').slice(0, 32)}`;
}

/**
 * rate-limiter-flexible's SQLite store wraps each statement in a SAVEPOINT; two at once on one connection nest, and
 * a read inside the other's transaction turns its write into SQLITE_BUSY (a stale snapshot). One at a time, each
 * transaction begins with its write and waits for the file's lock (busy timeout) like every other process's.
 */
class OneAtATime {
  private tail: Promise<unknown> = Promise.resolve();

  /** `serialize`: the store's own writes' turn (budget-store.ts), so the process writes the file one way at a time */
  constructor(private readonly serialize: <T>(op: () => Promise<T>) => Promise<T>) {}

  wrap(limiter: RateLimiterAbstract): Limiter {
    const run = <T>(op: () => Promise<T>): Promise<T> => {
      const inTurn = () => this.serialize(op);
      const result = this.tail.then(inTurn, inTurn);
      this.tail = result.catch(() => undefined);
      return result;
    };
    return {
      consume: (key, points) => run(() => limiter.consume(key, points)),
      get: (key) => run(() => limiter.get(key)),
      set: (key, points, secDuration) => run(() => limiter.set(key, points, secDuration)),
      block: (key, secDuration) => run(() => limiter.block(key, secDuration)),
    };
  }
}

function openSqlite(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (error) => {
      if (error) return reject(error);
      // the daemon, the CLI and TypeORM's own connection write the same file: wait for the lock rather than fail
      db.configure('busyTimeout', 10_000);
      // as the store's own connection (tuneSqlite): the file is in WAL mode, where NORMAL survives a process crash
      db.run('PRAGMA synchronous=NORMAL', (pragmaError) => (pragmaError ? reject(pragmaError) : resolve(db)));
    });
  });
}
