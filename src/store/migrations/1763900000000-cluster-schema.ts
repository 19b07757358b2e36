import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Several daemons on one database: the `daemon` heartbeat table, and the lease's `last_slot` (the
 * latest scheduled tick already claimed, so each tick of a schedule runs once across daemons).
 * Table API only, like the first migration, so it runs on SQLite and PostgreSQL alike.
 */
export class ClusterSchema1763900000000 implements MigrationInterface {
  name = 'ClusterSchema1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'daemon',
        columns: [
          { name: 'id', type: 'varchar', length: '200', isPrimary: true },
          { name: 'host', type: 'varchar', length: '255' },
          { name: 'pid', type: 'integer' },
          { name: 'started_at', type: 'varchar', length: '32' },
          { name: 'heartbeat_at', type: 'varchar', length: '32' },
          { name: 'running', type: 'text' },
        ],
      }),
    );
    await q.addColumn('lease', new TableColumn({ name: 'last_slot', type: 'varchar', length: '32', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('lease', 'last_slot');
    await q.dropTable('daemon');
  }
}
