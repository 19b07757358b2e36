import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The store's first schema, built with TypeORM's Table API (no SQL dialect of its own), so the same
 * migration runs on SQLite and PostgreSQL. JSON columns are `text` (entities read them as simple-json).
 */
const str = (name: string, length: number, nullable = false) => ({ name, type: 'varchar', length: String(length), isNullable: nullable });
const int = (name: string, nullable = false) => ({ name, type: 'integer', isNullable: nullable });
const counter = (name: string) => ({ name, type: 'integer', default: 0 });
const text = (name: string, nullable = false) => ({ name, type: 'text', isNullable: nullable });
const pk = <T extends object>(column: T) => ({ ...column, isPrimary: true });
const serial = (name: string) => ({ name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const });

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'connection',
        columns: [
          pk(str('id', 200)), str('connector', 200), text('settings'), str('schedule', 200, true),
          { name: 'paused', type: 'boolean', default: false }, str('created_at', 32), str('updated_at', 32),
        ],
      }),
    );
    await q.createTable(
      new Table({ name: 'cursor', columns: [pk(str('connection_id', 200)), pk(str('stream', 40)), str('value', 32), str('set_at', 32)] }),
    );
    await q.createTable(
      new Table({ name: 'stream_state', columns: [pk(str('connection_id', 200)), pk(str('stream', 40)), text('state'), str('set_at', 32)] }),
    );
    await q.createTable(
      new Table({
        name: 'run',
        columns: [
          serial('id'), str('connection_id', 200), str('mode', 16), str('since', 40, true), str('trigger', 16),
          str('holder', 200, true), str('started_at', 32), str('finished_at', 32, true), str('status', 16), text('streams'),
          counter('uploaded'), counter('processed'), counter('saved'), counter('skipped_by_status'),
          counter('skipped_by_waiting_visit_info'), counter('skipped_by_internal_error'),
          counter('skipped_because_not_changed'), counter('skipped_by_invalid_format'),
          counter('skipped_fields_by_invalid_format'), text('error', true),
        ],
        indices: [new TableIndex({ name: 'idx_run_connection_status', columnNames: ['connection_id', 'status'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'record_state',
        columns: [
          pk(str('connection_id', 200)), pk(str('stream', 40)), pk(str('external_id', 255)),
          str('fingerprint', 64), str('acknowledged_at', 32),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'rejected_record',
        columns: [
          serial('id'), int('run_id'), str('connection_id', 200), str('stream', 40), str('external_id', 255),
          str('field', 255), text('reason'), str('ref', 255, true), str('excerpt', 200, true), str('source', 16),
          str('fingerprint', 64, true), { name: 'resolved', type: 'boolean', default: false }, str('created_at', 32),
        ],
        indices: [
          new TableIndex({ name: 'idx_rejected_run', columnNames: ['run_id'] }),
          new TableIndex({ name: 'idx_rejected_record', columnNames: ['connection_id', 'stream', 'external_id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'lease',
        columns: [pk(str('connection_id', 200)), str('holder', 200), int('run_id', true), str('expires_at', 32)],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['lease', 'rejected_record', 'record_state', 'run', 'stream_state', 'cursor', 'connection']) {
      await q.dropTable(table);
    }
  }
}
