import type { Expense } from '../../connectors/canonical';
import { checkExpense } from '../../tracker/payload-checks';
import type { ExpenseAddRequest } from '../../tracker/types/channels.types';
import { expenseLanded } from '../pipeline/sending/landed-checks';
import { sendEach } from '../pipeline/sending/per-record';
import type { StreamHandler } from '../pipeline/sending/stream-handler';

/** Bump when a change of the mapping or checks changes what is sent: every expense is sent again once. */
export const EXPENSE_MAPPING_VERSION = 1;

/**
 * The service identifies an expense by its own id, which the store does not keep: one with the same channel
 * and period is looked up first and updated, else one is added. A create call that may have landed is looked
 * up (landed-checks.ts) and sent again only when absent.
 */
export const expensesHandler: StreamHandler<Expense, ExpenseAddRequest> = {
  stream: 'expenses',
  mappingVersion: EXPENSE_MAPPING_VERSION,
  toPayload: expenseToRequest,
  check: (e) => checkExpense(e),
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

export function expenseToRequest(e: Expense): ExpenseAddRequest {
  const out: ExpenseAddRequest = { source: e.channel, from_date: e.from_date, to_date: e.to_date, marketing_cost: e.marketing_cost };
  if (e.timezone) out.timezone = e.timezone;
  return out;
}
