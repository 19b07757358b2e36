import { Injectable } from '@nestjs/common';
import { TrackerSyncConfig } from '../../config/config.schema';
import { redactSecrets } from '../../config/redact';
import { isoNow } from '../../store/iso-time';
import { ConnectionStore } from '../../store/repositories/connection.store';
import { CursorStore } from '../../store/repositories/cursor.store';
import { UnknownConnectionError } from '../engine-errors';
import type { StoredConnection, StoredCursor } from '../engine-types';

/** The connection rows: mirrored from the config at start-up; `paused` belongs to the admin. */
@Injectable()
export class ConnectionsService {
  constructor(
    private readonly rows: ConnectionStore,
    private readonly cursorRows: CursorStore,
    private readonly config: TrackerSyncConfig,
  ) {}

  /** Upserts a row per configured connection (settings redacted); a paused flag set by the admin is kept. */
  async syncFromConfig(): Promise<void> {
    const now = isoNow();
    for (const c of this.config.connections) {
      const existing = await this.rows.get(c.id);
      const fields = { connector: c.connector, settings: redactSecrets(c.settings ?? {}), schedule: c.schedule ?? null, updated_at: now };
      await this.rows.upsert(existing ? { ...existing, ...fields } : { id: c.id, ...fields, paused: !!c.paused, created_at: now });
    }
  }

  /** Configured connections, in config order. */
  async list(): Promise<StoredConnection[]> {
    const rows = await this.rows.all();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return this.config.connections.map((c) => byId.get(c.id)).filter((r): r is StoredConnection => !!r);
  }

  async get(id: string): Promise<StoredConnection> {
    const row = this.config.connections.some((c) => c.id === id) ? await this.rows.get(id) : null;
    if (!row) throw new UnknownConnectionError(id);
    return row;
  }

  async pause(id: string): Promise<StoredConnection> {
    return this.setPaused(id, true);
  }

  async resume(id: string): Promise<StoredConnection> {
    return this.setPaused(id, false);
  }

  /**
   * Forgets cursors and connector states: the next run reads everything again. Record fingerprints
   * are kept, so what the service already has is still not re-sent (use a full resync for that).
   */
  async clearCursors(id: string): Promise<number> {
    await this.get(id);
    return this.cursorRows.forget(id);
  }

  async cursors(id: string): Promise<StoredCursor[]> {
    await this.get(id);
    return this.cursorRows.list(id);
  }

  private async setPaused(id: string, paused: boolean): Promise<StoredConnection> {
    await this.get(id);
    await this.rows.setPaused(id, paused);
    return this.get(id);
  }
}
