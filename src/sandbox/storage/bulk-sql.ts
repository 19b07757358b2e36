import type { EntityManager } from 'typeorm';

/** SQLite ≥ 3.32 allows 32766 bound parameters per statement; keep a margin. */
const MAX_PARAMS = 30000;

/**
 * Inserts many rows with few statements; on a key conflict the `updateColumns` take the new values.
 * One multi-row statement per chunk instead of one statement per row is what makes ingest fast.
 */
export async function bulkUpsert(
  manager: EntityManager,
  table: string,
  columns: string[],
  rows: unknown[][],
  conflictColumns: string[],
  updateColumns: string[],
): Promise<void> {
  if (rows.length === 0) return;
  const perChunk = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const placeholders = `(${columns.map(() => '?').join(',')})`;
  const onConflict = updateColumns.length === 0
    ? `ON CONFLICT(${conflictColumns.join(',')}) DO NOTHING`
    : `ON CONFLICT(${conflictColumns.join(',')}) DO UPDATE SET ${updateColumns.map((c) => `${c}=excluded.${c}`).join(',')}`;
  for (let start = 0; start < rows.length; start += perChunk) {
    const chunk = rows.slice(start, start + perChunk);
    const sql = `INSERT INTO ${table} (${columns.join(',')}) VALUES ${chunk.map(() => placeholders).join(',')} ${onConflict}`;
    await manager.query(sql, chunk.flat());
  }
}

/** Runs `SELECT ... WHERE <column> IN (...)` in chunks, for key lists of any length. */
export async function selectIn<T>(
  manager: EntityManager,
  sqlBeforeIn: string,
  leadingParams: unknown[],
  keys: unknown[],
  /** what follows the IN list (e.g. `GROUP BY client_id`) */
  sqlAfterIn = '',
): Promise<T[]> {
  const rows: T[] = [];
  const perChunk = MAX_PARAMS - leadingParams.length;
  for (let start = 0; start < keys.length; start += perChunk) {
    const chunk = keys.slice(start, start + perChunk);
    const sql = `${sqlBeforeIn} IN (${chunk.map(() => '?').join(',')}) ${sqlAfterIn}`;
    rows.push(...await manager.query(sql, [...leadingParams, ...chunk]) as T[]);
  }
  return rows;
}
