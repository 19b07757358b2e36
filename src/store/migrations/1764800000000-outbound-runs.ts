import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Outbound runs as a direction: each run records its direction (`sync` | `outbound`), its outbound flow's name
 * and that flow's counters (`flow_counters`, JSON, the names its flow's description gives).
 * Existing write-back runs (mode write_back, counters in `write_back`) become outbound runs of flow `write_back`
 * with the same counters, so they read as before. The old `write_back` column stays (no longer written), so an
 * older daemon on the same store still reads what it wrote. Table API and plain SQL: SQLite and PostgreSQL.
 */
export class OutboundRuns1764800000000 implements MigrationInterface {
  name = 'OutboundRuns1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('run', new TableColumn({ name: 'direction', type: 'varchar', length: '16', default: "'sync'" }));
    await q.addColumn('run', new TableColumn({ name: 'flow', type: 'varchar', length: '40', isNullable: true }));
    await q.addColumn('run', new TableColumn({ name: 'flow_counters', type: 'text', isNullable: true }));
    const counters = (await q.hasColumn('run', 'write_back')) ? 'write_back' : 'NULL';
    await q.query(`UPDATE run SET direction = 'outbound', flow = 'write_back', flow_counters = ${counters} WHERE mode = 'write_back'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('run', 'flow_counters');
    await q.dropColumn('run', 'flow');
    await q.dropColumn('run', 'direction');
  }
}
