import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** Write-back runs: their counters (run.write_back, JSON). Table API: SQLite and PostgreSQL. */
export class WriteBack1764400000000 implements MigrationInterface {
  name = 'WriteBack1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('run', new TableColumn({ name: 'write_back', type: 'text', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('run', 'write_back');
  }
}
