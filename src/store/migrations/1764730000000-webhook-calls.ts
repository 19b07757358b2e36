import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The last webhook call of each connection (WebhookCallEntity), shown on the status page. */
export class WebhookCalls1764730000000 implements MigrationInterface {
  name = 'WebhookCalls1764730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'webhook_call',
        columns: [
          { name: 'connection_id', type: 'varchar', length: '200', isPrimary: true },
          { name: 'last_call_at', type: 'varchar', length: '32' },
          { name: 'last_outcome', type: 'varchar', length: '20' },
          { name: 'last_accepted_at', type: 'varchar', length: '32', default: "''" },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('webhook_call');
  }
}
