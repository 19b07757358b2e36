import { DataSource, MoreThanOrEqual } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DaemonEntity } from '../entities/daemon.entity';
import { localProcessState } from '../local-process';
import type { DaemonRow } from '../records';
import { SerialWriter } from '../serial-writer';

/**
 * The `daemon` rows: each daemon writes its own (its heartbeat); anyone reads them. Writes go through the
 * serial writer: on SQLite TypeORM shares one connection, and a write beside a checkpoint's transaction
 * would land inside it.
 */
export class DaemonStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /** Insert-or-update of a daemon's row, in one statement. */
  async beat(row: DaemonRow): Promise<void> {
    await this.writer.run((m) => m.getRepository(DaemonEntity).upsert(row as QueryDeepPartialEntity<DaemonEntity>, ['id']));
  }

  async remove(id: string): Promise<void> {
    await this.writer.run((m) => m.getRepository(DaemonEntity).delete({ id }));
  }

  /** Daemons whose heartbeat is at or after `since` (ISO), most recently started first. */
  recent(since: string): Promise<DaemonRow[]> {
    return this.dataSource.getRepository(DaemonEntity).find({
      where: { heartbeat_at: MoreThanOrEqual(since) },
      order: { started_at: 'DESC', id: 'ASC' },
    });
  }

  /** Every row, fresh or stale, newest heartbeat first (stale ones: daemons killed or cut off from the store). */
  all(): Promise<DaemonRow[]> {
    return this.dataSource.getRepository(DaemonEntity).find({ order: { heartbeat_at: 'DESC', id: 'ASC' } });
  }

  get(id: string): Promise<DaemonRow | null> {
    return this.dataSource.getRepository(DaemonEntity).findOneBy({ id });
  }

  /** Rows silent since before `before` (crashed daemons) go, so the table does not grow forever. */
  async prune(before: string): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().delete().from(DaemonEntity).where('heartbeat_at < :before', { before }).execute(),
    );
  }
}

/**
 * Whether the daemon of this row is up: a process of this machine answers for itself (gone once killed, even
 * while its last heartbeat is fresh; up while it runs even when its heartbeat cannot be written, e.g. a full
 * disk); a daemon of another machine is up while its heartbeat is younger than `recentMs`.
 */
export function isLiveDaemon(row: Pick<DaemonRow, 'id' | 'heartbeat_at'>, recentMs: number, now = Date.now()): boolean {
  const local = localProcessState(row.id);
  if (local === 'alive') return true;
  if (local === 'gone' || local === 'ending') return false;
  return Date.parse(row.heartbeat_at) >= now - recentMs;
}
