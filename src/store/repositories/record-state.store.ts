import { DataSource, EntityManager, In } from 'typeorm';
import { RecordStateEntity } from '../entities/record-state.entity';
import { RejectedRecordEntity } from '../entities/rejected-record.entity';

/** SQLite allows 32766 bound parameters per statement; PostgreSQL 65535. Stay well below both. */
const IDS_PER_QUERY = 900;
/** rows per upsert statement: one JSON parameter each, so only memory bounds it */
const ROWS_PER_UPSERT = 5000;

export interface AcknowledgedRecord {
  externalId: string;
  fingerprint: string;
}

/**
 * Fingerprints of acknowledged payloads, looked up one batch at a time (never all in memory).
 * The two hot statements are written by hand (TypeORM's query builder spends more time on 2,500
 * parameters than the database does), in SQL that SQLite and PostgreSQL both accept; placeholders
 * come from the driver ('?' or '$n').
 */
export class RecordStateStore {
  constructor(private readonly dataSource: DataSource) {}

  async fingerprints(connectionId: string, stream: string, externalIds: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const param = placeholders(this.dataSource);
    for (let i = 0; i < externalIds.length; i += IDS_PER_QUERY) {
      const ids = externalIds.slice(i, i + IDS_PER_QUERY);
      const list = ids.map((_, k) => param(k + 2)).join(', ');
      const rows: { external_id: string; fingerprint: string }[] = await this.dataSource.query(
        `SELECT external_id, fingerprint FROM record_state WHERE connection_id = ${param(0)} AND stream = ${param(1)} AND external_id IN (${list})`,
        [connectionId, stream, ...ids],
      );
      for (const row of rows) found.set(row.external_id, row.fingerprint);
    }
    return found;
  }

  /**
   * The ids of a stream acknowledged at or after `since` (ISO-8601 UTC, as acknowledged_at is kept): their
   * count, and the ids themselves only when there are at most `max` of them (a plan asks how many first).
   */
  async acknowledgedSince(connectionId: string, stream: string, since: string, max: number): Promise<{ count: number; ids: string[] | null }> {
    const param = placeholders(this.dataSource);
    const where = `connection_id = ${param(0)} AND stream = ${param(1)} AND acknowledged_at >= ${param(2)}`;
    const [{ count }] = await this.dataSource.query(`SELECT COUNT(*) AS count FROM record_state WHERE ${where}`, [connectionId, stream, since]) as
      { count: number | string }[];
    if (Number(count) > max) return { count: Number(count), ids: null };
    const rows: { external_id: string }[] = await this.dataSource.query(
      `SELECT external_id FROM record_state WHERE ${where} ORDER BY external_id`, [connectionId, stream, since]);
    return { count: Number(count), ids: rows.map((row) => row.external_id) };
  }

  /** Every acknowledged id of a stream: only for small streams (managers). */
  async allIds(connectionId: string, stream: string): Promise<string[]> {
    const rows = await this.dataSource.getRepository(RecordStateEntity).find({
      select: { external_id: true },
      where: { connection_id: connectionId, stream },
    });
    return rows.map((r) => r.external_id);
  }

  /**
   * Inside a checkpoint: insert-or-update on the (connection, stream, id) key (ON CONFLICT: SQLite ≥ 3.24,
   * PostgreSQL ≥ 9.5). The rows travel as ONE JSON parameter that the database unpacks, so the statement
   * is short and always the same: a VALUES list made the database parse a new 40 KB statement with 1,000
   * parameters per batch (~10 % more CPU per checkpoint, measured on SQLite).
   */
  static async upsert(m: EntityManager, connectionId: string, stream: string, records: AcknowledgedRecord[], at: string): Promise<void> {
    const unique = [...new Map(records.map((r) => [r.externalId, r.fingerprint]))];
    const param = placeholders(m.connection);
    // `WHERE true` lets SQLite tell the upsert clause from a join constraint
    const rows = m.connection.options.type === 'postgres'
      ? `jsonb_array_elements(${param(3)}::jsonb) AS row(value)`
      : `json_each(${param(3)}) WHERE true`;
    for (let i = 0; i < unique.length; i += ROWS_PER_UPSERT) {
      await m.query(
        `INSERT INTO record_state (connection_id, stream, external_id, fingerprint, acknowledged_at) ` +
          `SELECT ${param(0)}, ${param(1)}, value->>0, value->>1, ${param(2)} FROM ${rows} ` +
          `ON CONFLICT (connection_id, stream, external_id) DO UPDATE SET fingerprint = excluded.fingerprint, acknowledged_at = excluded.acknowledged_at`,
        [connectionId, stream, at, JSON.stringify(unique.slice(i, i + ROWS_PER_UPSERT))],
      );
    }
  }

  static async remove(m: EntityManager, connectionId: string, stream: string, externalIds: string[]): Promise<void> {
    for (let i = 0; i < externalIds.length; i += IDS_PER_QUERY) {
      await m.getRepository(RecordStateEntity).delete({ connection_id: connectionId, stream, external_id: In(externalIds.slice(i, i + IDS_PER_QUERY)) });
    }
  }

  /** Earlier rejections of records now acknowledged are resolved. */
  static async resolveRejections(m: EntityManager, connectionId: string, stream: string, externalIds: string[]): Promise<void> {
    for (let i = 0; i < externalIds.length; i += IDS_PER_QUERY) {
      await m.getRepository(RejectedRecordEntity).update(
        { connection_id: connectionId, stream, resolved: false, external_id: In(externalIds.slice(i, i + IDS_PER_QUERY)) },
        { resolved: true },
      );
    }
  }
}

/**
 * Positional placeholders of the driver: SQLite numbers them '?1', '?2' (reusable), PostgreSQL '$1', '$2'.
 * `param(k)` is the placeholder of the k-th (0-based) parameter.
 */
function placeholders(dataSource: DataSource): (k: number) => string {
  const postgres = dataSource.options.type === 'postgres';
  return (k) => (postgres ? `$${k + 1}` : `?${k + 1}`);
}
