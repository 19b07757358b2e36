import { hostname } from 'os';
import { DataSource } from 'typeorm';
import { LeaseEntity } from '../../store/entities/lease.entity';
import { OWN_HOLDERS } from '../engine-options';
import { isoAfter, isoNow } from './iso-time';
import { SerialWriter } from './serial-writer';

/**
 * The lease of a connection: one row, taken with a conditional UPDATE whose affected-row count
 * says who won. Atomic on SQLite (one writer at a time) and on PostgreSQL (row lock), across processes.
 */
export class LeaseStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
    private readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  /** true when this process now holds the lease of the connection. */
  async acquire(connectionId: string): Promise<boolean> {
    await this.ensureRow(connectionId);
    if (await this.takeIf(connectionId, { expiredOrMine: true })) return true;
    const current = await this.current(connectionId);
    // a holder on this host whose process is gone (killed) cannot renew: take over at once
    if (current && isDeadLocalHolder(current.holder)) return this.takeIf(connectionId, { fromHolder: current.holder });
    return false;
  }

  async setRun(connectionId: string, runId: number): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().update(LeaseEntity).set({ run_id: runId })
        .where('connection_id = :connectionId AND holder = :holder', { connectionId, holder: this.holder }).execute(),
    );
  }

  /** Extends the lease; false when it was lost (expired and taken by another process). */
  async renew(connectionId: string): Promise<boolean> {
    const result = await this.writer.run((m) =>
      m.createQueryBuilder().update(LeaseEntity).set({ expires_at: isoAfter(this.ttlMs) })
        .where('connection_id = :connectionId AND holder = :holder', { connectionId, holder: this.holder }).execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  async release(connectionId: string): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().update(LeaseEntity).set({ holder: '', run_id: null, expires_at: new Date(0).toISOString() })
        .where('connection_id = :connectionId AND holder = :holder', { connectionId, holder: this.holder }).execute(),
    );
  }

  current(connectionId: string): Promise<LeaseEntity | null> {
    return this.dataSource.getRepository(LeaseEntity).findOneBy({ connection_id: connectionId });
  }

  /** The holder of a live lease (unexpired, not a dead local process), else null. */
  async liveHolder(connectionId: string): Promise<LeaseEntity | null> {
    const lease = await this.current(connectionId);
    if (!lease || !lease.holder || lease.expires_at < isoNow() || isDeadLocalHolder(lease.holder)) return null;
    return lease;
  }

  private async ensureRow(connectionId: string): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().insert().into(LeaseEntity)
        .values({ connection_id: connectionId, holder: '', run_id: null, expires_at: new Date(0).toISOString() })
        .orIgnore().execute(),
    );
  }

  private async takeIf(connectionId: string, when: { expiredOrMine?: boolean; fromHolder?: string }): Promise<boolean> {
    const result = await this.writer.run((m) => {
      const qb = m.createQueryBuilder().update(LeaseEntity)
        .set({ holder: this.holder, run_id: null, expires_at: isoAfter(this.ttlMs) })
        .where('connection_id = :connectionId', { connectionId });
      if (when.fromHolder !== undefined) qb.andWhere('holder = :old', { old: when.fromHolder });
      else qb.andWhere('(expires_at < :now OR holder = :me OR holder = :free)', { now: isoNow(), me: this.holder, free: '' });
      return qb.execute();
    });
    return (result.affected ?? 0) > 0;
  }
}

/** host:pid:nonce of a process on this host that no longer exists. */
export function isDeadLocalHolder(holder: string | null | undefined): boolean {
  if (!holder) return false;
  const [host, pidText] = holder.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  // our own pid: alive if this process made the id, else a previous incarnation (e.g. PID 1 in a restarted container)
  if (pid === process.pid) return !OWN_HOLDERS.has(holder);
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
