/**
 * The one way the daemon reaches the cluster's Redis (`cluster.redis`): BullMQ's `connection` options and plain
 * ioredis clients for everything else. Shared by the run queue, the budgets and the OAuth2 lock.
 */
import IORedis, { RedisOptions } from 'ioredis';

/** Reconnect at most this long after a drop (Redis restarting): quick, but never a tight loop. */
const MAX_RECONNECT_MS = 2_000;

/**
 * Options for `redis://[user:password@]host[:port][/db]` (`rediss://` for TLS). `maxRetriesPerRequest: null`:
 * BullMQ's workers block on Redis and must wait for it to come back rather than fail their commands.
 */
export function redisConnectionOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.replace(/^\//, '') || 0);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(times * 200, MAX_RECONNECT_MS),
  };
}

/** A client of its own (the caller closes it with `quit()`). */
export function createRedis(url: string, overrides: RedisOptions = {}): IORedis {
  return new IORedis({ ...redisConnectionOptions(url), ...overrides });
}
