import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Connectors' rotating secrets shared by every process of the store (ConnectorSecretEntity). */
export class ConnectorSecrets1764600000001 implements MigrationInterface {
  name = 'ConnectorSecrets1764600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'connector_secret',
        columns: [
          { name: 'connector', type: 'varchar', length: '100', isPrimary: true },
          { name: 'secret_key', type: 'varchar', length: '120', isPrimary: true },
          { name: 'value', type: 'text', isNullable: true },
          { name: 'updated_at', type: 'varchar', length: '32' },
          { name: 'lock_holder', type: 'varchar', length: '200', default: "''" },
          { name: 'lock_expires_at', type: 'varchar', length: '32', default: "''" },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('connector_secret');
  }
}
