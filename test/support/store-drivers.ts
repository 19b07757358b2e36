import { randomBytes } from 'crypto';
import { DataSource } from 'typeorm';
import { StoreOptions } from '../../src/store/store-data-source';

/**
 * The store suites run on every driver: SQLite always, PostgreSQL when TEST_DATABASE_URL is set
 * (`source .ci/postgres.sh` starts one). In CI (CI=true) a missing URL fails the PostgreSQL suites
 * instead of skipping them; locally they are skipped with a message saying how to run them.
 */
export type StoreDriver = 'sqlite' | 'postgres';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

/** describe.each over the drivers; `body(driver)` declares the suite's tests for one driver. */
export function describeStores(name: string, body: (driver: StoreDriver) => void): void {
  describe(`${name} [sqlite]`, () => body('sqlite'));
  describePostgres(name, () => body('postgres'));
}

/** A suite that needs PostgreSQL: runs with TEST_DATABASE_URL, fails in CI without it, else is skipped. */
export function describePostgres(name: string, body: () => void): void {
  if (TEST_DATABASE_URL) {
    describe(`${name} [postgres]`, body);
  } else if (IN_CI) {
    describe(`${name} [postgres]`, () => {
      it('needs TEST_DATABASE_URL in CI (source .ci/postgres.sh before the tests)', () => {
        throw new Error('TEST_DATABASE_URL is not set: the PostgreSQL suites cannot run (source .ci/postgres.sh)');
      });
    });
  } else {
    // the reason is in the suite's name: jest's summary (test/support/skip-reasons-reporter.js) lists it
    describe.skip(`${name} [postgres] skipped: no PostgreSQL (set TEST_DATABASE_URL, or run \`source .ci/postgres.sh\` first)`, () => {
      it('runs on PostgreSQL', () => undefined);
    });
  }
}

/** A PostgreSQL schema of its own for one test: the URL selects it through search_path. */
export class TestSchema {
  readonly name = `ts_${randomBytes(5).toString('hex')}`;

  async create(): Promise<string> {
    await this.admin(`CREATE SCHEMA ${this.name}`);
    return withSearchPath(TEST_DATABASE_URL!, this.name);
  }

  async drop(): Promise<void> {
    await this.admin(`DROP SCHEMA IF EXISTS ${this.name} CASCADE`);
  }

  private async admin(sql: string): Promise<void> {
    const admin = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 1 } }).initialize();
    try {
      await admin.query(sql);
    } finally {
      await admin.destroy();
    }
  }
}

export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** Store options for one test on `driver`; `cleanup` drops what the test made (not the SQLite folder). */
export async function storeOptionsFor(driver: StoreDriver, dataDir: string): Promise<{ options: StoreOptions; cleanup: () => Promise<void> }> {
  if (driver === 'sqlite') return { options: { dataDir }, cleanup: async () => undefined };
  const schema = new TestSchema();
  const url = await schema.create();
  return { options: { dataDir, url }, cleanup: () => schema.drop() };
}

/** Runs SQL written with '?' placeholders on either driver ('$1'… on PostgreSQL). */
export function sql<T = any>(dataSource: DataSource, text: string, params: unknown[] = []): Promise<T> {
  if (dataSource.options.type !== 'postgres') return dataSource.query(text, params);
  let n = 0;
  return dataSource.query(text.replace(/\?/g, () => `$${++n}`), params);
}
