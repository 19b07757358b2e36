import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { processHolderId } from '../store/holder-id';
import type { DistributedLock } from '../store/repositories/connector-secret.store';
import { isDeadLocalHolder } from '../store/repositories/lease.store';

/** Deletes the key only while it still holds our value: a lock that expired and went to another is left alone. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * A Redis lock: `SET key value NX PX ttl`, the value naming this process and this acquisition (the fence), released
 * by a compare-and-delete. A holder killed mid-work leaves the lock until its TTL, or at once to a process on its
 * machine that sees it is gone (as the store's row locks do).
 */
export class RedisLock implements DistributedLock {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'tracker-sync:lock:',
  ) {}

  async withLock<T>(name: string, ttlMs: number, waitMs: number, fn: () => Promise<T>): Promise<T> {
    const key = this.prefix + name;
    const value = `${processHolderId()}|${randomUUID()}`;
    const until = Date.now() + waitMs;
    while ((await this.redis.set(key, value, 'PX', ttlMs, 'NX')) !== 'OK') {
      const held = await this.redis.get(key);
      if (held && isDeadLocalHolder(held.split('|')[0])) {
        await this.redis.eval(RELEASE, 1, key, held); // its process is gone: no need to wait for the expiry
        continue;
      }
      if (Date.now() > until) throw new Error(`${name} stayed locked by another process for ${Math.round(waitMs / 1000)} s`);
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 150));
    }
    try {
      return await fn();
    } finally {
      await this.redis.eval(RELEASE, 1, key, value).catch(() => undefined); // else it expires
    }
  }
}
