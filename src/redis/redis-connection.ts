import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';

/**
 * The one place that turns `cluster.redis` (redis:// or rediss:// for TLS) into connection options, for BullMQ's
 * `connection` and for our own clients (budgets, locks). BullMQ requires `maxRetriesPerRequest: null` on the
 * connections its workers block on; commands wait for a reconnect instead of failing after a few retries.
 */
export function redisConnectionOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: db ? Number(db) : 0,
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    // reconnect forever, backing off up to 2 s: Redis restarting must not end the daemon
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  };
}

/**
 * An ioredis client of its own for request/response work (budgets, locks): unlike BullMQ's blocking connections,
 * a command fails after a few retries while Redis is away (the caller's run fails cleanly and is retried) instead of
 * hanging; the client keeps reconnecting in the background.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  // required here: only cluster mode reaches Redis, and every other process goes without ioredis
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const IORedis = require('ioredis') as typeof import('ioredis').default;
  return new IORedis({ ...redisConnectionOptions(url), maxRetriesPerRequest: 3, ...options });
}
