import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ConnectionEntity } from '../entities/connection.entity';
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

  async setPaused(id: string, paused: boolean): Promise<void> {
    await this.writer.run((m) => m.getRepository(ConnectionEntity).update({ id }, { paused, updated_at: isoNow() }));
  }
}
