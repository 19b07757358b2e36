import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * The service and project a connection's records were sent to (ConnectionStore.switchTarget): a connection moved
 * to another project or service forgets what it sent before, or its fingerprints would keep every record from the
 * new one. Null until the connection's next run.
 */
export class ConnectionTarget1765100000000 implements MigrationInterface {
  name = 'ConnectionTarget1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('connection', new TableColumn({ name: 'target', type: 'varchar', length: '500', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('connection', 'target');
  }
}
