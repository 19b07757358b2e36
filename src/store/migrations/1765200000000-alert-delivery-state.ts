import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A condition's send is no longer counted as sent before it is delivered: `claimed_at` is when a send was claimed
 * (what keeps daemons from sending it twice, as `last_sent_at` did), `last_sent_at` now only moves when the channel
 * took the message, and a delivery that failed waits for `retry_at` (a backoff over `delivery_failures`), its
 * reason in `last_error`. Existing conditions keep their sends as claimed. Table API and plain SQL: SQLite and PostgreSQL.
 */
export class AlertDeliveryState1765200000000 implements MigrationInterface {
  name = 'AlertDeliveryState1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('alert_state', new TableColumn({ name: 'claimed_at', type: 'varchar', length: '32', isNullable: true }));
    await q.addColumn('alert_state', new TableColumn({ name: 'retry_at', type: 'varchar', length: '32', isNullable: true }));
    await q.addColumn('alert_state', new TableColumn({ name: 'delivery_failures', type: 'integer', default: 0 }));
    await q.addColumn('alert_state', new TableColumn({ name: 'last_error', type: 'text', isNullable: true }));
    await q.query('UPDATE alert_state SET claimed_at = last_sent_at');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('alert_state', 'last_error');
    await q.dropColumn('alert_state', 'delivery_failures');
    await q.dropColumn('alert_state', 'retry_at');
    await q.dropColumn('alert_state', 'claimed_at');
  }
}
