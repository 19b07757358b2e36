import { DataSource, EntityManager } from 'typeorm';
import { CursorEntity } from '../entities/cursor.entity';
import { StreamStateEntity } from '../entities/stream-state.entity';
import { isoNow } from '../iso-time';
import type { CursorRow } from '../records';
import { SerialWriter } from '../serial-writer';

/** Cursors and connector stream states: read at a run's start, written only inside checkpoints (or forgotten). */
export class CursorStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /** A connection's cursors, by stream. */
  list(connectionId: string): Promise<CursorRow[]> {
    return this.dataSource.getRepository(CursorEntity).find({ where: { connection_id: connectionId }, order: { stream: 'ASC' } });
  }

  /** Drops a connection's cursors and connector states (the next run reads everything); the cursors dropped. */
  forget(connectionId: string): Promise<number> {
    return this.writer.transaction(async (m) => {
      const result = await m.getRepository(CursorEntity).delete({ connection_id: connectionId });
      await m.getRepository(StreamStateEntity).delete({ connection_id: connectionId });
      return result.affected ?? 0;
    });
  }

  async cursor(connectionId: string, stream: string): Promise<Date | null> {
    const row = await this.dataSource.getRepository(CursorEntity).findOneBy({ connection_id: connectionId, stream });
    return row ? new Date(row.value) : null;
  }

  async state(connectionId: string, stream: string): Promise<Record<string, unknown> | null> {
    const row = await this.dataSource.getRepository(StreamStateEntity).findOneBy({ connection_id: connectionId, stream });
    return row ? row.state : null;
  }

  /** Moves the cursor forward only: every record at or before the old value was acknowledged already. */
  static async advance(m: EntityManager, connectionId: string, stream: string, value: Date): Promise<void> {
    const repo = m.getRepository(CursorEntity);
    const current = await repo.findOneBy({ connection_id: connectionId, stream });
    const iso = value.toISOString();
    if (current && current.value >= iso) return;
    await repo.save({ connection_id: connectionId, stream, value: iso, set_at: isoNow() });
  }

  /** Pulls the cursor back (an out-of-order record proved the prefix wrong); inclusive reads re-read it. */
  static async rewind(m: EntityManager, connectionId: string, stream: string, value: Date): Promise<void> {
    const repo = m.getRepository(CursorEntity);
    const current = await repo.findOneBy({ connection_id: connectionId, stream });
    const iso = value.toISOString();
    if (!current || current.value <= iso) return;
    await repo.save({ connection_id: connectionId, stream, value: iso, set_at: isoNow() });
  }

  static async saveState(m: EntityManager, connectionId: string, stream: string, state: Record<string, unknown>): Promise<void> {
    await m.getRepository(StreamStateEntity).save({ connection_id: connectionId, stream, state, set_at: isoNow() });
  }
}
