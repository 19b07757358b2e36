import * as sqlite3 from 'sqlite3';

/**
 * Reads a SQLite file as another process would (read-only, its own connection): the daemon's store
 * after its process was killed, or the sandbox's database while the sandbox runs (WAL lets readers in).
 */
export async function querySqlite<T = Record<string, unknown>>(file: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(opened)));
  });
  try {
    return await new Promise<T[]>((resolve, reject) => db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}
