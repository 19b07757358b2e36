import type { Deal } from '../../../connectors/canonical';
import type { AddOrder } from '../../../tracker/types/orders.types';
import { dealsMapping } from '../../mappings/deals';
import { invalidFormatIds } from '../service-answer';
import { batchBody } from './payload-bytes';
import type { StreamHandler } from './stream-handler';

export const dealsHandler: StreamHandler<Deal, AddOrder> = {
  ...dealsMapping,
  concurrent: true,
  sendsBytes: true,
  async send(ctx, items) {
    // Serialised once (or on the read's worker thread), then the payload objects are let go: with several batches
    // in flight they would otherwise outlive the young generation and swell the old one; a refused order is read
    // back from the text.
    const body = batchBody(items.map((i) => i.payload));
    for (const item of items) item.payload = undefined as unknown as AddOrder;
    const answer = await ctx.tracker.orders.addBatch(body);
    const ids = items.map((i) => i.externalId);
    const refusedIds = invalidFormatIds(answer, ids);
    const sent = refusedIds.length ? (JSON.parse(body.text) as AddOrder[]) : [];
    return {
      counters: answer,
      refused: refusedIds.map((externalId) => ({
        externalId,
        field: 'date_create',
        reason: `the service skipped it: skipped_by_invalid_format (${answer.comment})`.slice(0, 500),
        payload: sent[ids.indexOf(externalId)],
      })),
    };
  },
};
