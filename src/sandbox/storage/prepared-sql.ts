import { Injectable } from '@nestjs/common';
import type { Database, Statement } from 'sqlite3';
import { DataSource } from 'typeorm';
import { InjectSandboxDataSource } from './sandbox-data-source';

/**
 * Bulk statements on the sandbox's SQLite connection.
 * Key lists travel as ONE JSON text parameter that SQLite unpacks with `json_each`: binding thousands
 * of separate parameters costs the Node thread ~15 µs per row, while one `JSON.stringify` costs a few.
 * Those statements have one fixed shape, prepared once and reused; bulk upserts carry literals.
 * It runs on TypeORM's own connection, so the statements join the caller's open transaction.
 */
@Injectable()
export class SandboxPreparedSql {
  /** prepared statements by SQL text; a failed preparation is forgotten, so the next call tries again */
  private readonly statements = new Map<string, Promise<Statement>>();

  constructor(@InjectSandboxDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs `work` in one transaction opened on the raw connection. TypeORM's `transaction()` spent ~2 ms
   * of its own per call (query runner, events, logging), a tenth of a 500-order add-orders request.
   * Callers hold the write lock, as for any write.
   */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.run('BEGIN', []);
    try {
      const result = await work();
      await this.run('COMMIT', []);
      return result;
    } catch (error) {
      // SQLite rolls some failures back itself (disk full, I/O); then ROLLBACK fails and must not hide the cause.
      await this.run('ROLLBACK', []).catch(() => undefined);
      throw error;
    }
  }

  /**
   * INSERT ... ON CONFLICT DO UPDATE of many rows (each row an array in `columns` order), the values
   * written into the statement as SQL literals (`sqlLiteral`). Compiling them is most of SQLite's part,
   * yet the alternatives cost the Node thread, which is on the request's path, more: binding each value
   * ~11 µs per row, and rows as one JSON parameter escape the JSON columns again (`jsonb_each` was
   * lighter on SQLite's thread but slower end to end; text `json_each` was slower on both).
   */
  bulkUpsert(table: string, columns: string[], rows: unknown[][], conflict: string[], update: string[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    const onConflict = update.length === 0 ? `ON CONFLICT(${conflict.join(',')}) DO NOTHING`
      : `ON CONFLICT(${conflict.join(',')}) DO UPDATE SET ${update.map((c) => `${c}=excluded.${c}`).join(',')}`;
    const values = rows.map((row) => `(${row.map(sqlLiteral).join(',')})`).join(',');
    const sql = `INSERT INTO ${table} (${columns.join(',')}) VALUES ${values} ${onConflict}`;
    return new Promise((resolve, reject) => {
      this.connection().run(sql, (error: Error | null) => (error ? reject(error) : resolve()));
    });
  }

  /** `SELECT ... WHERE <column> IN (keys)` for any number of keys, in one statement. */
  selectIn<T>(sqlBeforeIn: string, leading: unknown[], keys: unknown[]): Promise<T[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.all<T>(`${sqlBeforeIn} IN (SELECT value FROM json_each(?))`, [...leading, JSON.stringify(keys)]);
  }

  async run(sql: string, params: unknown[]): Promise<void> {
    const statement = await this.statement(sql);
    return new Promise((resolve, reject) => {
      statement.run(params, (error: Error | null) => (error ? reject(error) : resolve()));
    });
  }

  async all<T>(sql: string, params: unknown[]): Promise<T[]> {
    const statement = await this.statement(sql);
    return new Promise((resolve, reject) => {
      statement.all<T>(params, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows)));
    });
  }

  /** Must run before the connection closes: SQLite refuses to close with live statements. */
  async finalizeAll(): Promise<void> {
    const statements = [...this.statements.values()];
    this.statements.clear();
    await Promise.all(statements.map((prepared) => prepared.then(
      (statement) => new Promise<void>((resolve) => statement.finalize(() => resolve())),
      () => undefined, // never prepared: nothing to finalize
    )));
  }

  private connection(): Database {
    return (this.dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection;
  }

  /**
   * The statement of `sql`, prepared once. Preparing takes a callback: without one, SQLite reports a failure
   * (the connection closing under a late request) as an 'error' event that nothing listens to, which ends
   * the process, and the calls queued on that statement never answer.
   */
  private statement(sql: string): Promise<Statement> {
    const cached = this.statements.get(sql);
    if (cached) return cached;
    const prepared = new Promise<Statement>((resolve, reject) => {
      const statement = this.connection().prepare(sql, (error: Error | null) => (error ? reject(error) : resolve(statement)));
    });
    prepared.catch(() => {
      if (this.statements.get(sql) === prepared) this.statements.delete(sql);
    });
    this.statements.set(sql, prepared);
    return prepared;
  }
}

const NEEDS_ESCAPE = /['\u0000]/;

/**
 * A value as an SQLite literal: strings quoted with `'` doubled (SQLite has no other escape), finite
 * numbers as written, booleans as 1/0, null, undefined and non-finite numbers as NULL (as JSON would).
 * SQLite reads a statement's text only up to a NUL character, so a string holding one is written as
 * hex bytes cast to text. Any other type is a programming error, not something to store silently.
 */
export function sqlLiteral(value: unknown): string {
  switch (typeof value) {
    case 'string':
      // One scan for the common case: most values hold neither character.
      if (!NEEDS_ESCAPE.test(value)) return `'${value}'`;
      if (value.includes('\u0000')) return `CAST(X'${Buffer.from(value, 'utf8').toString('hex')}' AS TEXT)`;
      return `'${value.replaceAll("'", "''")}'`;
    case 'number':
      return Number.isFinite(value) ? String(value) : 'NULL';
    case 'boolean':
      return value ? '1' : '0';
    case 'undefined':
      return 'NULL';
    default:
      if (value === null) return 'NULL';
      throw new TypeError(`sqlLiteral: cannot write a ${typeof value} as an SQL value`);
  }
}
