import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

const str = (name: string, length: number, nullable = false) => ({ name, type: 'varchar', length: String(length), isNullable: nullable });
const pk = <T extends object>(column: T) => ({ ...column, isPrimary: true });

/** Alerts: the state of each watched condition (claimed per send across daemons) and each delivery. Table API: SQLite and PostgreSQL. */
export class Alerts1764500000000 implements MigrationInterface {
  name = 'Alerts1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'alert_state',
        columns: [
          pk(str('alert_id', 100)), pk(str('connection_id', 200)), pk(str('event', 40)), { name: 'active', type: 'boolean', default: false },
          str('first_at', 32, true), str('last_sent_at', 32, true), str('ended_at', 32, true),
          { name: 'run_id', type: 'integer', isNullable: true }, { name: 'message', type: 'text', isNullable: true },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'alert_delivery',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          str('alert_id', 100), str('type', 16), str('event', 40), str('connection_id', 200, true),
          { name: 'run_id', type: 'integer', isNullable: true }, { name: 'reminder', type: 'boolean', default: false },
          { name: 'message', type: 'text' }, str('status', 16), { name: 'attempts', type: 'integer', default: 0 },
          { name: 'last_error', type: 'text', isNullable: true }, str('created_at', 32), str('sent_at', 32, true),
        ],
        indices: [new TableIndex({ name: 'idx_alert_delivery_alert', columnNames: ['alert_id', 'id'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('alert_delivery');
    await q.dropTable('alert_state');
  }
}
