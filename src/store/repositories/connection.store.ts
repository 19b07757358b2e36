import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ConnectionEntity } from '../entities/connection.entity';
import { CursorEntity } from '../entities/cursor.entity';
import { RecordStateEntity } from '../entities/record-state.entity';
import { StreamStateEntity } from '../entities/stream-state.entity';
import { isoNow } from '../iso-time';
import type { ConnectionRow } from '../records';
import { SerialWriter } from '../serial-writer';

/** The connection rows (what the config says, as last mirrored, plus the admin's `paused`). */
export class ConnectionStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  get(id: string): Promise<ConnectionRow | null> {
    return this.dataSource.getRepository(ConnectionEntity).findOneBy({ id });
  }

  all(): Promise<ConnectionRow[]> {
    return this.dataSource.getRepository(ConnectionEntity).find();
  }

  /** Insert-or-update by id, in one statement: daemons sharing a database start together and may insert the same new row at once. */
  async upsert(row: ConnectionRow): Promise<void> {
    await this.writer.run((m) => m.getRepository(ConnectionEntity).upsert(row as QueryDeepPartialEntity<ConnectionEntity>, ['id']));
  }

  /**
   * The connection's records go to `target` now (TrackerClient.target: the service and the project). When they went
   * to another one before, what was sent there is forgotten in the same transaction: its fingerprints, cursors and
   * connector states say nothing of what the new target holds, and would keep every unchanged record from it. The
   * target before, when it switched; else null (the same target, or the connection's first run).
   */
  switchTarget(id: string, target: string): Promise<string | null> {
    return this.writer.transaction(async (m) => {
      const row = await m.getRepository(ConnectionEntity).findOneBy({ id });
      if (!row || row.target === target) return null;
      if (row.target) {
        for (const entity of [RecordStateEntity, CursorEntity, StreamStateEntity]) await m.getRepository(entity).delete({ connection_id: id });
      }
      await m.getRepository(ConnectionEntity).update({ id }, { target });
      return row.target;
    });
  }

  async setPaused(id: string, paused: boolean): Promise<void> {
    await this.writer.run((m) => m.getRepository(ConnectionEntity).update({ id }, { paused, updated_at: isoNow() }));
  }
}
