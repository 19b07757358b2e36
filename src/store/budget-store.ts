import type { DataSource } from 'typeorm';
import { serialWriter } from './serial-writer';

/**
 * Where the request budgets' counters can live in this store (src/budget/budget-limiters.ts builds
 * rate-limiter-flexible's limiters on it): the PostgreSQL pool, the SQLite file (opened again on a connection of
 * the budget's own), or nowhere shared (an in-memory database).
 */
export type BudgetStoreHandle =
  | { kind: 'postgres'; pool: unknown }
  | { kind: 'sqlite'; file: string; serialize: <T>(op: () => Promise<T>) => Promise<T> }
  | { kind: 'memory' };

export function budgetStoreOf(dataSource: DataSource): BudgetStoreHandle {
  if (dataSource.options.type === 'postgres') return { kind: 'postgres', pool: (dataSource.driver as unknown as { master: unknown }).master };
  const file = String(dataSource.options.database ?? '');
  if (dataSource.options.type !== 'sqlite' || file === '' || file === ':memory:') return { kind: 'memory' };
  // the budget's statements take their turn with the store's writes (its SerialWriter): two connections of one
  // process writing the file at once wait for each other's lock on the thread pool, and could each wait out the
  // busy timeout (SQLITE_BUSY in a run's checkpoint, seen with 16 runs at once)
  const writer = serialWriter(dataSource);
  return { kind: 'sqlite', file, serialize: (op) => writer.run(() => op()) };
}
