import type { Expense } from '../../../connectors/canonical';
import type { ExpenseAddRequest } from '../../../tracker/types/channels.types';
import { expensesMapping } from '../../mappings/expenses';
import { expenseLanded } from './landed-checks';
import { sendEach } from './per-record';
import type { StreamHandler } from './stream-handler';

/**
 * The service identifies an expense by its own id, which the store does not keep: one with the same channel
 * and period is looked up first and updated, else one is added. A create call that may have landed is looked
 * up (landed-checks.ts) and sent again only when absent.
 */
export const expensesHandler: StreamHandler<Expense, ExpenseAddRequest> = {
  ...expensesMapping,
  concurrent: false,
  async send(ctx, items) {
    const existing = await ctx.tracker.channels.listExpenses();
    const key = (source: unknown, from: unknown, to: unknown) => `${String(source)}|${String(from)}|${String(to)}`;
    const ids = new Map<string, number>();
    for (const e of existing as unknown as Record<string, unknown>[]) ids.set(key(e.source ?? e.source_name, e.from_date, e.to_date), Number(e.id));
    return sendEach(
      items,
      async ({ payload }) => {
        const id = ids.get(key(payload.source, payload.from_date, payload.to_date));
        if (id !== undefined && Number.isFinite(id)) await ctx.tracker.channels.updateExpense({ id, marketing_cost: payload.marketing_cost });
        else await ctx.tracker.channels.addExpense(payload);
      },
      { landed: ({ payload }) => expenseLanded(ctx.tracker, payload) },
    );
  },
};
