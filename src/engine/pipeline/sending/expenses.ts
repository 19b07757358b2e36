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
 *
 * An update changes the amount only: one the service holds in another zone than the expense's own (`timezone`,
 * given) counts its days in that zone, so it is deleted and the expense added in its zone. A run stopped between
 * the two leaves the expense unacknowledged: the next one finds none and adds it.
 */
export const expensesHandler: StreamHandler<Expense, ExpenseAddRequest> = {
  ...expensesMapping,
  concurrent: false,
  async send(ctx, items) {
    const existing = await ctx.tracker.channels.listExpenses();
    const key = (source: unknown, from: unknown, to: unknown) => `${String(source)}|${String(from)}|${String(to)}`;
    const held = new Map<string, { id: number; timezone: unknown }>();
    for (const e of existing as unknown as Record<string, unknown>[]) held.set(key(e.source ?? e.source_name, e.from_date, e.to_date), { id: Number(e.id), timezone: e.timezone });
    return sendEach(
      items,
      async ({ payload }) => {
        const found = held.get(key(payload.source, payload.from_date, payload.to_date));
        const id = found && Number.isFinite(found.id) ? found.id : undefined;
        if (id !== undefined && payload.timezone && found!.timezone !== payload.timezone) {
          ctx.log(`expense ${payload.source} ${payload.from_date}..${payload.to_date}: the service holds it in ${JSON.stringify(found!.timezone ?? null)}, not ${payload.timezone}: deleted and added again in ${payload.timezone}`);
          await ctx.tracker.channels.deleteExpense(id);
          held.delete(key(payload.source, payload.from_date, payload.to_date));
          await ctx.tracker.channels.addExpense(payload);
        } else if (id !== undefined) await ctx.tracker.channels.updateExpense({ id, marketing_cost: payload.marketing_cost });
        else await ctx.tracker.channels.addExpense(payload);
      },
      { landed: ({ payload }) => expenseLanded(ctx.tracker, payload) },
    );
  },
};
