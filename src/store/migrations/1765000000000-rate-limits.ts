import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The request budgets move to rate-limiter-flexible (src/budget/): its counters table replaces the token bucket's
 * rows, which are only send times and counts of the current hour (nothing to carry over).
 * Columns as rate-limiter-flexible's SQLite and PostgreSQL stores expect them.
 */
export class RateLimits1765000000000 implements MigrationInterface {
  name = 'RateLimits1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.dropTable('request_budget', true);
    await q.createTable(
      new Table({
        name: 'rate_limits',
        columns: [
          { name: 'key', type: 'varchar', length: '255', isPrimary: true },
          { name: 'points', type: 'integer', default: 0 },
          { name: 'expire', type: 'bigint', isNullable: true },
        ],
      }),
      true,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('rate_limits', true);
  }
}
