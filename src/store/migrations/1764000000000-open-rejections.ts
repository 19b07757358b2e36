import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { openRejectionKey } from '../open-rejection-key';

const str = (name: string, length: number, nullable = false) => ({ name, type: 'varchar', length: String(length), isNullable: nullable });
const pk = <T extends object>(column: T) => ({ ...column, isPrimary: true });

interface OldRejection {
  run_id: number;
  connection_id: string;
  stream: string;
  external_id: string;
  field: string;
  reason: string;
  ref: string | null;
  excerpt: string | null;
  source: string;
  created_at: string;
}

/**
 * The standing set of open rejections per connection (OpenRejectionEntity). Filled from the run-level rejected
 * records not resolved yet, so that an upgrade does not hide what is still broken until the source changes:
 * the latest rejection of each record and field, first seen at its earliest. Table API and plain SELECT/INSERT,
 * so it runs on SQLite and PostgreSQL alike.
 */
export class OpenRejections1764000000000 implements MigrationInterface {
  name = 'OpenRejections1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'open_rejection',
        columns: [
          pk(str('connection_id', 200)), pk(str('stream', 40)), pk(str('record_key', 300)), pk(str('field', 255)),
          str('external_id', 255), str('ref', 255, true), { name: 'reason', type: 'text' }, str('excerpt', 200, true),
          str('source', 16), str('first_seen', 32), str('last_seen', 32), { name: 'last_run_id', type: 'integer' },
        ],
        indices: [new TableIndex({ name: 'idx_open_rejection_seen', columnNames: ['connection_id', 'stream', 'last_seen'] })],
      }),
    );
    const old: OldRejection[] = await q.query(
      'SELECT run_id, connection_id, stream, external_id, field, reason, ref, excerpt, source, created_at FROM rejected_record WHERE resolved = false ORDER BY id',
    );
    const rows = new Map<string, Record<string, unknown>>();
    const firstSeen = new Map<string, string>();
    for (const r of old) {
      const record = `${r.connection_id}\n${r.stream}\n${openRejectionKey(r)}`;
      if (!firstSeen.has(record)) firstSeen.set(record, r.created_at);
      rows.set(`${record}\n${r.field}`, {
        connection_id: r.connection_id, stream: r.stream, record_key: openRejectionKey(r), field: r.field, external_id: r.external_id,
        ref: r.ref, reason: r.reason, excerpt: r.excerpt, source: r.source, first_seen: firstSeen.get(record), last_seen: r.created_at, last_run_id: r.run_id,
      });
    }
    const values = [...rows.values()];
    for (let i = 0; i < values.length; i += 200) {
      await q.manager.createQueryBuilder().insert().into('open_rejection').values(values.slice(i, i + 200)).execute();
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('open_rejection');
  }
}
