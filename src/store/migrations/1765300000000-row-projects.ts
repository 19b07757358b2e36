import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** The rows of a connection's history the admin API shows; a rejected record and an open rejection are their run's (`run_id`, `last_run_id`). */
const TABLES = ['run', 'webhook_call', 'alert_state', 'alert_delivery'];

/**
 * The project (its name in the config) each run, webhook call, alert condition and delivery was made for. A
 * connection id may leave a project for another (a reload, a restart with another file): without the column the new
 * project's scoped tokens saw the old project's history, record excerpts included, as theirs. Rows from before it
 * are null and count as their connection's project of the moment (`src/store/project-rows.ts`): which project made
 * them was never recorded. Table API only: SQLite and PostgreSQL.
 */
export class RowProjects1765300000000 implements MigrationInterface {
  name = 'RowProjects1765300000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.addColumn(table, new TableColumn({ name: 'project', type: 'varchar', length: '200', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await q.dropColumn(table, 'project');
  }
}
