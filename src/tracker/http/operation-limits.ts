import { OperationKey } from '../operations';
import { OperationLimit } from './rate-limits';

/**
 * The specification's Limits table. Order list with `extend` containing `visit`:
 * `limit` above 1000 → 1/min, above 100 → 5/min, below 100 → 10/min. The spec leaves
 * exactly 100 and 1000 (and an absent `limit`) open: we take the stricter neighbour.
 */
export function operationLimitFor(op: OperationKey, body: unknown): OperationLimit | null {
  switch (op) {
    case 'ordersList':
      return orderListLimit(body);
    case 'visitsList':
      return { key: 'visits.list', perSecond: 1, perMinute: 15 };
    default:
      return null;
  }
}

function orderListLimit(body: unknown): OperationLimit {
  const req = (body ?? {}) as { extend?: unknown; limit?: unknown };
  const withVisit = Array.isArray(req.extend) && req.extend.includes('visit');
  if (!withVisit) return { key: 'orders.list', perMinute: 20 };
  const limit = typeof req.limit === 'number' ? req.limit : Infinity;
  if (limit >= 1000) return { key: 'orders.list:visit:>1000', perMinute: 1 };
  if (limit >= 100) return { key: 'orders.list:visit:>100', perMinute: 5 };
  return { key: 'orders.list:visit:<100', perMinute: 10 };
}
