import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Proxy lead → CRM deal of lead delivery (LeadDeliveryEntity); SQLite and PostgreSQL alike. */
export class LeadDelivery1764900000029 implements MigrationInterface {
  name = 'LeadDelivery1764900000029';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'lead_delivery',
        columns: [
          { name: 'connection_id', type: 'varchar', length: '200', isPrimary: true },
          { name: 'lead_id', type: 'varchar', length: '100', isPrimary: true },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'attempt', type: 'varchar', length: '8', default: "'deal'" },
          { name: 'deal_id', type: 'varchar', length: '100', isNullable: true },
          { name: 'contact_id', type: 'varchar', length: '100', isNullable: true },
          { name: 'note_id', type: 'varchar', length: '100', isNullable: true },
          { name: 'lead_day', type: 'varchar', length: '10' },
          { name: 'attempted_at', type: 'varchar', length: '32' },
          { name: 'delivered_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'run_id', type: 'integer', isNullable: true },
        ],
      }),
    );
    await q.createIndex('lead_delivery', new TableIndex({ name: 'idx_lead_delivery_day', columnNames: ['connection_id', 'lead_day'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('lead_delivery');
  }
}
