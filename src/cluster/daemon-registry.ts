import { DataSource, MoreThanOrEqual } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { serialWriter } from '../store/serial-writer';
import { DaemonEntity, DaemonRunningRun } from '../store/entities/daemon.entity';

/**
 * The `daemon` rows: each daemon writes its own; anyone reads them. Writes go through the engine's
 * serial writer: on SQLite TypeORM shares one connection, and a write beside a checkpoint's
 * transaction would land inside it.
 */
export class DaemonRegistry {
  constructor(private readonly dataSource: DataSource) {}

  /** Insert-or-update of this daemon's row, in one statement. */
  async beat(row: DaemonEntity): Promise<void> {
    await serialWriter(this.dataSource).run((m) =>
      m.getRepository(DaemonEntity).upsert(row as QueryDeepPartialEntity<DaemonEntity>, ['id']),
    );
  }

  async remove(id: string): Promise<void> {
    await serialWriter(this.dataSource).run((m) => m.getRepository(DaemonEntity).delete({ id }));
  }

  /** Daemons whose heartbeat is at or after `since` (ISO), most recently started first. */
  recent(since: string): Promise<DaemonEntity[]> {
    return this.dataSource.getRepository(DaemonEntity).find({
      where: { heartbeat_at: MoreThanOrEqual(since) },
      order: { started_at: 'DESC', id: 'ASC' },
    });
  }

  /** Rows silent for long (crashed daemons) are dropped so the table does not grow forever. */
  async prune(before: string): Promise<void> {
    await serialWriter(this.dataSource).run((m) =>
      m.createQueryBuilder().delete().from(DaemonEntity).where('heartbeat_at < :before', { before }).execute(),
    );
  }
}

export type { DaemonRunningRun };
