import { MigrationInterface, QueryRunner, Table } from 'typeorm';

const ms = (name: string) => ({ name, type: 'double precision', default: 0 });
const count = (name: string) => ({ name, type: 'integer', default: 0 });

/** The project's request budget shared by every process of the store (RequestBudgetEntity). */
export class RequestBudget1764600000000 implements MigrationInterface {
  name = 'RequestBudget1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'request_budget',
        columns: [
          { name: 'scope', type: 'varchar', length: '300', isPrimary: true },
          { name: 'window_name', type: 'varchar', length: '120', isPrimary: true },
          ms('next_at'), ms('penalty_until'), ms('period_start'), count('used'), count('prev_used'),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('request_budget');
  }
}
