import { DataSource } from 'typeorm';
import { DaemonEntity } from '../entities/daemon.entity';
import { LeaseEntity } from '../entities/lease.entity';
import { RunEntity } from '../entities/run.entity';
import { isoAfter, isoNow } from '../iso-time';
import { localProcessState } from '../local-process';
import type { LeaseRow } from '../records';
import { SerialWriter } from '../serial-writer';

/** Who takes leases, and for how long: one per process (the engine's holder id and timings). */
export interface LeaseHolder {
  /** machine:pid:nonce (holder-id.ts) */
  id: string;
  ttlMs: number;
  /** a holder whose daemon heartbeat is older than this is dead */
  deadDaemonAfterMs: number;
}

export type AcquireResult = { taken: true } | { taken: false; reason: 'held' | 'slot-taken'; lease: LeaseRow | null };

/**
 * The lease of a connection: one row, taken with a conditional UPDATE whose affected-row count says
 * who won. Atomic on SQLite (one writer at a time) and on PostgreSQL (the UPDATE locks the row and
 * re-checks its WHERE after a concurrent commit), across processes and machines.
 * A scheduled run also claims its tick (`last_slot`) in the same statement: each tick runs once.
 */
export class LeaseStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /** Takes the lease for `me` (and claims `slot`, an ISO instant, when given). */
  async acquire(me: LeaseHolder, connectionId: string, slot?: string): Promise<AcquireResult> {
    await this.ensureRow(connectionId);
    if (await this.takeIf(me, connectionId, { slot })) return { taken: true };
    const current = await this.current(connectionId);
    if (slot && current?.last_slot && current.last_slot >= slot) return { taken: false, reason: 'slot-taken', lease: current };
    // a holder that can no longer renew (killed here, or its daemon stopped beating): take over at once
    if (current?.holder && current.holder !== me.id && (await this.isDeadHolder(current.holder, me.deadDaemonAfterMs))) {
      if (await this.takeIf(me, connectionId, { slot, fromHolder: current.holder })) return { taken: true };
    }
    const after = await this.current(connectionId);
    const slotTaken = !!slot && !!after?.last_slot && after.last_slot >= slot;
    return { taken: false, reason: slotTaken ? 'slot-taken' : 'held', lease: after };
  }

  async setRun(me: LeaseHolder, connectionId: string, runId: number): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().update(LeaseEntity).set({ run_id: runId })
        .where('connection_id = :connectionId AND holder = :holder', { connectionId, holder: me.id }).execute(),
    );
  }

  /** Extends the lease; false when it was lost (expired and taken by another process). */
  async renew(me: LeaseHolder, connectionId: string): Promise<boolean> {
    const result = await this.writer.run((m) =>
      m.createQueryBuilder().update(LeaseEntity).set({ expires_at: isoAfter(me.ttlMs) })
        .where('connection_id = :connectionId AND holder = :holder', { connectionId, holder: me.id }).execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  async release(me: LeaseHolder, connectionId: string): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().update(LeaseEntity).set({ holder: '', run_id: null, expires_at: new Date(0).toISOString() })
        .where('connection_id = :connectionId AND holder = :holder', { connectionId, holder: me.id }).execute(),
    );
  }

  current(connectionId: string): Promise<LeaseRow | null> {
    return this.dataSource.getRepository(LeaseEntity).findOneBy({ connection_id: connectionId });
  }

  /** Dead: a process of this machine that is gone, or a daemon whose heartbeat is older than `deadAfterMs`. */
  async isDeadHolder(holder: string, deadAfterMs: number): Promise<boolean> {
    if (isDeadLocalHolder(holder)) return true;
    const daemon = await this.dataSource.getRepository(DaemonEntity).findOneBy({ id: holder });
    // no row: a CLI run or a daemon of an older version; only the lease's expiry can tell
    return !!daemon && daemon.heartbeat_at < new Date(Date.now() - deadAfterMs).toISOString();
  }

  /**
   * The lease is held by a process that is letting it go: a process of this machine that is exiting (killed,
   * not yet reaped), or one of any machine whose run, named by the lease, has already ended (its release comes next).
   */
  async isEnding(lease: LeaseRow): Promise<boolean> {
    const state = localProcessState(lease.holder);
    if (state === 'ending' || state === 'gone') return true;
    if (lease.run_id == null) return false;
    const run = await this.dataSource.getRepository(RunEntity).findOneBy({ id: lease.run_id });
    return !!run && run.status !== 'running';
  }

  private async ensureRow(connectionId: string): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().insert().into(LeaseEntity)
        .values({ connection_id: connectionId, holder: '', run_id: null, expires_at: new Date(0).toISOString(), last_slot: null })
        .orIgnore().execute(),
    );
  }

  private async takeIf(me: LeaseHolder, connectionId: string, when: { slot?: string; fromHolder?: string }): Promise<boolean> {
    const result = await this.writer.run((m) => {
      const set: Partial<LeaseEntity> = { holder: me.id, run_id: null, expires_at: isoAfter(me.ttlMs) };
      if (when.slot) set.last_slot = when.slot;
      const qb = m.createQueryBuilder().update(LeaseEntity).set(set).where('connection_id = :connectionId', { connectionId });
      if (when.fromHolder !== undefined) qb.andWhere('holder = :old', { old: when.fromHolder });
      else qb.andWhere('(expires_at < :now OR holder = :me OR holder = :free)', { now: isoNow(), me: me.id, free: '' });
      if (when.slot) qb.andWhere('(last_slot IS NULL OR last_slot < :slot)', { slot: when.slot });
      return qb.execute();
    });
    return (result.affected ?? 0) > 0;
  }
}

/** machine:pid:nonce of a process on this machine (same boot, same pid namespace) that no longer exists or is a zombie. */
export function isDeadLocalHolder(holder: string | null | undefined): boolean {
  return localProcessState(holder) === 'gone';
}
