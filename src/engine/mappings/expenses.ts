import type { Expense } from '../../connectors/canonical';
import { checkExpense } from '../../tracker/payload-checks';
import type { ExpenseAddRequest } from '../../tracker/types/channels.types';
import type { StreamMapping } from './stream-mapping';

/**
 * Bump when a change of the mapping or checks changes what is sent: every expense is sent again once.
 * 2: a sheet's `timezone` setting is sent as the expense's zone (it was left out: the service counted the days
 * in Moscow time); the expenses sent before are sent again, and one the service holds in another zone is replaced.
 */
export const EXPENSE_MAPPING_VERSION = 2;

export const expensesMapping: StreamMapping<Expense, ExpenseAddRequest> = {
  stream: 'expenses',
  mappingVersion: EXPENSE_MAPPING_VERSION,
  toPayload: expenseToRequest,
  check: (e) => checkExpense(e),
};

export function expenseToRequest(e: Expense): ExpenseAddRequest {
  const out: ExpenseAddRequest = { source: e.channel, from_date: e.from_date, to_date: e.to_date, marketing_cost: e.marketing_cost };
  if (e.timezone) out.timezone = e.timezone;
  return out;
}
