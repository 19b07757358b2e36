import { Injectable } from '@nestjs/common';
import type { Database, Statement } from 'sqlite3';
import { DataSource } from 'typeorm';
import { InjectSandboxDataSource } from './sandbox-data-source';

/**
 * Bulk statements on the sandbox's SQLite connection, prepared once and reused.
 * Rows and key lists travel as ONE JSON text parameter that SQLite unpacks with `json_each`:
 * binding thousands of separate parameters costs the Node thread ~15 µs per row, while one
 * `JSON.stringify` costs a few, and SQLite parses the JSON on its own thread. Every statement thus
 * has one fixed shape, compiled once.
 * It runs on TypeORM's own connection, so the statements join the caller's open transaction.
 */
@Injectable()
export class SandboxPreparedSql {
  private readonly statements = new Map<string, Statement>();

  constructor(@InjectSandboxDataSource() private readonly dataSource: DataSource) {}

  /** INSERT ... ON CONFLICT DO UPDATE of many rows (each row an array in `columns` order). */
  bulkUpsert(table: string, columns: string[], rows: unknown[][], conflict: string[], update: string[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    const onConflict = update.length === 0 ? `ON CONFLICT(${conflict.join(',')}) DO NOTHING`
      : `ON CONFLICT(${conflict.join(',')}) DO UPDATE SET ${update.map((c) => `${c}=excluded.${c}`).join(',')}`;
    const values = columns.map((_, index) => `value->>${index}`).join(',');
    // `WHERE true` lets SQLite tell the upsert clause from a join constraint.
    const sql = `INSERT INTO ${table} (${columns.join(',')}) SELECT ${values} FROM json_each(?) WHERE true ${onConflict}`;
    return this.run(sql, [JSON.stringify(rows)]);
  }

  /** `SELECT ... WHERE <column> IN (keys)` for any number of keys, in one statement. */
  selectIn<T>(sqlBeforeIn: string, leading: unknown[], keys: unknown[]): Promise<T[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.all<T>(`${sqlBeforeIn} IN (SELECT value FROM json_each(?))`, [...leading, JSON.stringify(keys)]);
  }

  run(sql: string, params: unknown[]): Promise<void> {
    const statement = this.statement(sql);
    return new Promise((resolve, reject) => {
      statement.run(params, (error: Error | null) => (error ? reject(error) : resolve()));
    });
  }

  all<T>(sql: string, params: unknown[]): Promise<T[]> {
    const statement = this.statement(sql);
    return new Promise((resolve, reject) => {
      statement.all<T>(params, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows)));
    });
  }

  /** Must run before the connection closes: SQLite refuses to close with live statements. */
  async finalizeAll(): Promise<void> {
    const statements = [...this.statements.values()];
    this.statements.clear();
    await Promise.all(statements.map((statement) => new Promise<void>((resolve) => statement.finalize(() => resolve()))));
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      const connection = (this.dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection;
      statement = connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
