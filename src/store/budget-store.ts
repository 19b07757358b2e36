import type { DataSource } from 'typeorm';

/**
 * Where the request budgets' counters can live in this store (src/budget/budget-limiters.ts builds
 * rate-limiter-flexible's limiters on it): the PostgreSQL pool, the SQLite file (opened again on a connection of
 * the budget's own), or nowhere shared (an in-memory database).
 */
export type BudgetStoreHandle = { kind: 'postgres'; pool: unknown } | { kind: 'sqlite'; file: string } | { kind: 'memory' };

export function budgetStoreOf(dataSource: DataSource): BudgetStoreHandle {
  if (dataSource.options.type === 'postgres') return { kind: 'postgres', pool: (dataSource.driver as unknown as { master: unknown }).master };
  const file = String(dataSource.options.database ?? '');
  if (dataSource.options.type !== 'sqlite' || file === '' || file === ':memory:') return { kind: 'memory' };
  return { kind: 'sqlite', file };
}
