import { DataSource } from 'typeorm';
import type { ConnectorSecrets } from '../../connectors/connector-definition';
import { ConnectorSecretEntity } from '../entities/connector-secret.entity';
import { ownHolder, processHolderId } from '../holder-id';
import { isoAfter, isoNow } from '../iso-time';
import { SerialWriter } from '../serial-writer';
import { isDeadLocalHolder } from './lease.store';

/** How long a lock lasts unless released: longer than one token request (30 s), short enough for a dead holder. */
const LOCK_TTL_MS = 45_000;
/** How long withLock waits for another holder before giving up. */
const LOCK_WAIT_MS = 90_000;

/**
 * Connectors' rotating secrets (ConnectorSecretEntity): read, compare-and-set, and a lock per secret, each one
 * conditional statement, atomic across processes and machines (as the leases are).
 */
/**
 * This process's holders of each lock, in turn: the row admits its holder (the process) again, so they queue here
 * first. One map for the process, not one per store instance: two instances (the daemon's and a run's wiring) share
 * the process's holder id, and would otherwise both be admitted and refresh one token twice.
 */
const processTurns = new Map<string, Promise<unknown>>();

/** Which database a store instance writes to: the lock rows, and so the turns, are per database. */
function databaseOf(dataSource: DataSource): string {
  const options = dataSource.options as { type: string; database?: unknown; url?: string; schema?: string };
  return `${options.type}:${options.url ?? String(options.database ?? '')}:${options.schema ?? ''}`;
}

/** One holder at a time across the cluster for a named piece of work: cluster mode's Redis lock (src/cluster/redis-lock.ts). */
export interface DistributedLock {
  withLock<T>(name: string, ttlMs: number, waitMs: number, fn: () => Promise<T>): Promise<T>;
}

export class ConnectorSecretStore {
  private readonly holder = processHolderId();
  /** cluster mode: the secrets' locks are taken in Redis instead of the rows (app.module.ts sets it) */
  private clusterLock: DistributedLock | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /** The capability a connector gets in its context: the secrets of its own connector name only. */
  forConnector(connector: string, options: { holder?: string; lockTtlMs?: number; lockWaitMs?: number } = {}): ConnectorSecrets {
    const holder = options.holder ? ownHolder(options.holder) : this.holder;
    const ttl = options.lockTtlMs ?? LOCK_TTL_MS;
    const wait = options.lockWaitMs ?? LOCK_WAIT_MS;
    return {
      get: (key) => this.get(connector, key),
      compareAndSet: (key, expected, next) => this.compareAndSet(connector, key, expected, next),
      withLock: (key, fn) => this.withLock(connector, key, holder, ttl, wait, fn),
    };
  }

  /** Cluster mode: locks go to `lock` (Redis); the values stay in the store. */
  useLock(lock: DistributedLock): void {
    this.clusterLock = lock;
  }

  async get(connector: string, key: string): Promise<string | null> {
    const row = await this.dataSource.getRepository(ConnectorSecretEntity).findOneBy({ connector, secret_key: key });
    return row?.value ?? null;
  }

  /** Stores `next` if the stored value is still `expected` (null: never written); false when it was not. */
  async compareAndSet(connector: string, key: string, expected: string | null, next: string): Promise<boolean> {
    await this.ensureRow(connector, key);
    const result = await this.writer.run((m) => {
      const qb = m.createQueryBuilder().update(ConnectorSecretEntity).set({ value: next, updated_at: isoNow() })
        .where('connector = :connector AND secret_key = :key', { connector, key });
      if (expected === null) qb.andWhere('value IS NULL');
      else qb.andWhere('value = :expected', { expected });
      return qb.execute();
    });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Runs `fn` holding the secret's lock: one holder at a time across the cluster, the others wait (polling,
   * with jitter). A holder that died (its process is gone here, or the lock expired) is taken over.
   */
  withLock<T>(connector: string, key: string, holder: string, ttlMs: number, waitMs: number, fn: () => Promise<T>): Promise<T> {
    const turn = `${databaseOf(this.dataSource)}\n${connector}\n${key}\n${holder}`;
    const previous = processTurns.get(turn) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => this.locked(connector, key, holder, ttlMs, waitMs, fn));
    processTurns.set(turn, mine);
    void mine.catch(() => undefined).then(() => {
      if (processTurns.get(turn) === mine) processTurns.delete(turn);
    });
    return mine;
  }

  private async locked<T>(connector: string, key: string, holder: string, ttlMs: number, waitMs: number, fn: () => Promise<T>): Promise<T> {
    if (this.clusterLock) return this.clusterLock.withLock(`connector ${connector}: ${key}`, ttlMs, waitMs, fn);
    await this.ensureRow(connector, key);
    const until = Date.now() + waitMs;
    while (!(await this.lock(connector, key, holder, ttlMs))) {
      if (Date.now() > until) throw new Error(`connector ${connector}: ${key} stayed locked by another process for ${Math.round(waitMs / 1000)} s`);
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 150));
    }
    try {
      return await fn();
    } finally {
      await this.writer.run((m) =>
        m.createQueryBuilder().update(ConnectorSecretEntity).set({ lock_holder: '', lock_expires_at: '' })
          .where('connector = :connector AND secret_key = :key AND lock_holder = :holder', { connector, key, holder }).execute(),
      ).catch(() => undefined); // the lock expires anyway
    }
  }

  private async lock(connector: string, key: string, holder: string, ttlMs: number): Promise<boolean> {
    const take = (condition: string, params: Record<string, string>) =>
      this.writer.run((m) =>
        m.createQueryBuilder().update(ConnectorSecretEntity).set({ lock_holder: holder, lock_expires_at: isoAfter(ttlMs) })
          .where('connector = :connector AND secret_key = :key', { connector, key })
          .andWhere(condition, params).execute(),
      );
    const free = await take("(lock_holder = '' OR lock_holder = :holder OR lock_expires_at < :now)", { holder, now: isoNow() });
    if ((free.affected ?? 0) > 0) return true;
    const row = await this.dataSource.getRepository(ConnectorSecretEntity).findOneBy({ connector, secret_key: key });
    if (!row?.lock_holder || !isDeadLocalHolder(row.lock_holder)) return false;
    // its process is gone (killed in the middle of a refresh): no need to wait for the expiry
    return ((await take('lock_holder = :dead', { dead: row.lock_holder })).affected ?? 0) > 0;
  }

  private async ensureRow(connector: string, key: string): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().insert().into(ConnectorSecretEntity)
        .values({ connector, secret_key: key, value: null, updated_at: isoNow(), lock_holder: '', lock_expires_at: '' })
        .orIgnore().execute(),
    );
  }
}
