import { DataSource, QueryRunner } from 'typeorm';

/**
 * Makes every transaction of a SQLite store begin as a writer (`BEGIN IMMEDIATE`).
 *
 * TypeORM begins with a plain (deferred) `BEGIN`: the transaction reads under a snapshot and asks for the write
 * lock at its first write. In WAL mode, if another process (a CLI run beside the daemon) committed after that
 * snapshot, the write fails at once with SQLITE_BUSY, whatever the busy timeout: the snapshot is stale and
 * waiting cannot help. Begun as a writer, the transaction waits (busy timeout) for the lock before it reads, and
 * nothing it reads can go stale. A transaction that writes first is not safe either: TypeORM's SQLite driver has
 * ONE connection, so any read of the daemon (the status page, a run's lookups) made while it is open runs inside it.
 * The store's transactions all write, so beginning them as writers costs nothing. TypeORM has no option for it:
 * the BEGIN of the driver's one query runner is rewritten here.
 */
export function beginSqliteTransactionsAsWriters(dataSource: DataSource): void {
  if (dataSource.options.type !== 'sqlite') return; // PostgreSQL takes row locks as it writes: nothing to do
  const runner: QueryRunner & { beginsAsWriter?: boolean } = dataSource.driver.createQueryRunner('master');
  if (runner.beginsAsWriter) return;
  const query = runner.query.bind(runner) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
  runner.query = ((sql: string, ...rest: unknown[]) =>
    query(sql === 'BEGIN TRANSACTION' ? 'BEGIN IMMEDIATE TRANSACTION' : sql, ...rest)) as QueryRunner['query'];
  runner.beginsAsWriter = true;
}
