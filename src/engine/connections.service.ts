import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TrackerSyncConfig } from '../config/config.schema';
import { redactSecrets } from '../config/redact';
import { ConnectionEntity } from '../store/entities/connection.entity';
import { CursorEntity } from '../store/entities/cursor.entity';
import { StreamStateEntity } from '../store/entities/stream-state.entity';
import { UnknownConnectionError } from './engine-errors';
import { isoNow } from '../store/iso-time';
import { serialWriter } from '../store/serial-writer';

/** The connection rows: mirrored from the config at start-up; `paused` belongs to the admin. */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: TrackerSyncConfig,
  ) {}

  private get writer() {
    return serialWriter(this.dataSource);
  }

  private get repo() {
    return this.dataSource.getRepository(ConnectionEntity);
  }

  /** Upserts a row per configured connection (settings redacted); a paused flag set by the admin is kept. */
  async syncFromConfig(): Promise<void> {
    const now = isoNow();
    for (const c of this.config.connections) {
      const existing = await this.repo.findOneBy({ id: c.id });
      const fields = { connector: c.connector, settings: redactSecrets(c.settings ?? {}), schedule: c.schedule ?? null, updated_at: now };
      const row = existing ? { ...existing, ...fields } : { id: c.id, ...fields, paused: !!c.paused, created_at: now };
      // an upsert: daemons sharing a database start together and may insert the same new row at once
      await this.writer.run((m) => m.getRepository(ConnectionEntity).upsert(row as QueryDeepPartialEntity<ConnectionEntity>, ['id']));
    }
  }

  /** Configured connections, in config order. */
  async list(): Promise<ConnectionEntity[]> {
    const rows = await this.repo.find();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return this.config.connections.map((c) => byId.get(c.id)).filter((r): r is ConnectionEntity => !!r);
  }

  async get(id: string): Promise<ConnectionEntity> {
    const row = this.config.connections.some((c) => c.id === id) ? await this.repo.findOneBy({ id }) : null;
    if (!row) throw new UnknownConnectionError(id);
    return row;
  }

  async pause(id: string): Promise<ConnectionEntity> {
    return this.setPaused(id, true);
  }

  async resume(id: string): Promise<ConnectionEntity> {
    return this.setPaused(id, false);
  }

  /**
   * Forgets cursors and connector states: the next run reads everything again. Record fingerprints
   * are kept, so what the service already has is still not re-sent (use a full resync for that).
   */
  async clearCursors(id: string): Promise<number> {
    await this.get(id);
    return this.writer.transaction(async (m) => {
      const result = await m.getRepository(CursorEntity).delete({ connection_id: id });
      await m.getRepository(StreamStateEntity).delete({ connection_id: id });
      return result.affected ?? 0;
    });
  }

  async cursors(id: string): Promise<CursorEntity[]> {
    await this.get(id);
    return this.dataSource.getRepository(CursorEntity).find({ where: { connection_id: id }, order: { stream: 'ASC' } });
  }

  private async setPaused(id: string, paused: boolean): Promise<ConnectionEntity> {
    await this.get(id);
    await this.writer.run((m) => m.getRepository(ConnectionEntity).update({ id }, { paused, updated_at: isoNow() }));
    return this.get(id);
  }
}
