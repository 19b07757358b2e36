import { DataSource, MoreThanOrEqual } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DaemonEntity } from '../entities/daemon.entity';
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

  /** Rows silent since before `before` (crashed daemons) go, so the table does not grow forever. */
  async prune(before: string): Promise<void> {
    await this.writer.run((m) =>
      m.createQueryBuilder().delete().from(DaemonEntity).where('heartbeat_at < :before', { before }).execute(),
    );
  }
}
