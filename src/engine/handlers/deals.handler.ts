import type { Deal } from '../../connectors/canonical';
import { checkAddOrder } from '../../tracker/payload-checks';
import type { AddOrder } from '../../tracker/types/orders.types';
import { dealToAddOrder } from '../mapping/deal.mapping';
import { invalidFormatIds } from '../service-answer';
import type { StreamHandler } from '../stream-handlers';

export const dealsHandler: StreamHandler<Deal, AddOrder> = {
  stream: 'deals',
  toPayload: dealToAddOrder,
  check: (order) => checkAddOrder(order),
  concurrent: true,
  withoutVisit: (order) => !order.tracker,
  async send(ctx, items) {
    const answer = await ctx.tracker.orders.addBatch(items.map((i) => i.payload));
    const refusedIds = invalidFormatIds(answer, items.map((i) => i.externalId));
    return {
      counters: answer,
      refused: refusedIds.map((externalId) => ({
        externalId,
        field: 'date_create',
        reason: `the service skipped it: skipped_by_invalid_format (${answer.comment})`.slice(0, 500),
      })),
    };
  },
};
