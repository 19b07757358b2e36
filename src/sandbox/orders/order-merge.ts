import type { StatusType } from '../storage/order-status.entity';
import { parseDateCreate } from '../storage/order-date';
import type { OrderHistoryEntry, OrderInput } from './order-input';
import { OrderRecord, orderHash } from './stored-order';

/** Status of an order uploaded without `status`. */
export const DEFAULT_STATUS_ID = '0';

export interface MergeContext {
  projectId: number;
  now: string;
  statusTypes: Map<string, StatusType>;
}

/**
 * Upsert semantics: a field the client did not send keeps its stored value; a new order without
 * `date_create` is dated now, without `status` is in progress ('0').
 */
export function mergeOrder(previous: OrderRecord | undefined, input: OrderInput, context: MergeContext): OrderRecord {
  // One object literal, no spreads: this runs for every order of every batch.
  const order: OrderRecord = {
    projectId: context.projectId,
    id: input.id,
    name: input.name !== undefined ? input.name : previous?.name ?? null,
    creationDate: input.creationDate ?? previous?.creationDate ?? context.now,
    updateDate: context.now,
    paidDate: null,
    statusId: input.statusId ?? previous?.statusId ?? DEFAULT_STATUS_ID,
    tracker: input.tracker !== undefined ? input.tracker : previous?.tracker ?? null,
    clientId: input.clientId !== undefined ? input.clientId : previous?.clientId ?? null,
    revenue: input.revenue !== undefined ? input.revenue : previous?.revenue ?? null,
    cost: input.cost !== undefined ? input.cost : previous?.cost ?? null,
    fieldsJson: input.fields !== undefined ? JSON.stringify(input.fields) : previous?.fieldsJson ?? '{}',
    productsJson: input.products !== undefined ? JSON.stringify(input.products) : previous?.productsJson ?? '[]',
    historyJson: input.history !== undefined ? JSON.stringify(input.history) : previous?.historyJson ?? '[]',
    hash: '',
  };
  if (context.statusTypes.get(order.statusId) === 'paid') {
    order.paidDate = previous?.paidDate
      ?? paidDateFromHistory(input.history ?? JSON.parse(order.historyJson) as OrderHistoryEntry[], context.statusTypes)
      ?? context.now;
  }
  order.hash = orderHash(order);
  return order;
}

/** The latest history entry that moved the order into a paid status dates the payment. */
function paidDateFromHistory(history: OrderHistoryEntry[], statusTypes: Map<string, StatusType>): string | null {
  let latest: string | null = null;
  for (const entry of history) {
    if (!entry.status || !entry.date || statusTypes.get(entry.status) !== 'paid') continue;
    const date = parseDateCreate(entry.date);
    if (date && (latest === null || date > latest)) latest = date;
  }
  return latest;
}
