import type { Deal } from '../../../connectors/canonical';
import type { AddOrder, AddOrdersResponse } from '../../../tracker/types/orders.types';
import type { TrackerClient } from '../../../tracker/tracker-client';
import { SerializedJson } from '../../../tracker/http/serialized-json';
import { dealsMapping } from '../../mappings/deals';
import { idsInComment } from '../service-answer';
import { batchBody } from './payload-bytes';
import { statusRefusals, statusSkipNotices } from './status-skips';
import type { BatchAnswer, StreamHandler } from './stream-handler';

export const dealsHandler: StreamHandler<Deal, AddOrder> = {
  ...dealsMapping,
  concurrent: true,
  sendsBytes: true,
  notices: statusSkipNotices,
  async send(ctx, items) {
    // Serialised once (or on the read's worker thread), then the payload objects are let go: with several batches
    // in flight they would otherwise outlive the young generation and swell the old one; a refused order is read
    // back from the text.
    const body = batchBody(items.map((i) => i.payload));
    for (const item of items) item.payload = undefined as unknown as AddOrder;
    const answer = await ctx.tracker.orders.addBatch(body);
    const skipped = Number(answer.skipped_by_invalid_format) || 0;
    const byStatus = Number(answer.skipped_by_status) || 0;
    if (!skipped && !byStatus) return { counters: answer, refused: [] };
    const sent = JSON.parse(body.text) as AddOrder[];
    const refused = skipped ? await invalidFormat(ctx.tracker, answer, sent, skipped) : [];
    // the service skips an invalid date before it looks at the status: those orders are not among the status skips
    const formatRefused = new Set(refused.map((r) => r.externalId));
    if (byStatus) refused.push(...await statusRefusals(ctx, sent.filter((order) => !formatRefused.has(String(order.id))), byStatus));
    const ids = items.map((i) => i.externalId);
    return {
      counters: answer,
      refused: refused.map((r) => ({ ...r, reason: r.reason.slice(0, 500), payload: sent[ids.indexOf(r.externalId)] })),
    };
  },
};

/** The orders counted skipped_by_invalid_format: those its comment names, the rest found by asking again in halves. */
async function invalidFormat(tracker: TrackerClient, answer: AddOrdersResponse, sent: AddOrder[], skipped: number): Promise<BatchAnswer['refused']> {
  const ids = sent.map((order) => String(order.id));
  const named = idsInComment(answer.comment, ids);
  const refused = named.map((id) => ({ id, reason: `the service skipped it: skipped_by_invalid_format (${answer.comment})` }));
  if (skipped > named.length) {
    // the comment does not name them all (its wording is not specified): found by asking again in halves
    const rest = sent.filter((order) => !named.includes(String(order.id)));
    for (const id of await skippedByHalves(tracker, rest, skipped - named.length)) {
      refused.push({ id, reason: `the service skipped it: skipped_by_invalid_format (its comment named no order: ${JSON.stringify(answer.comment ?? '')}; found by sending the batch again in halves)` });
    }
  }
  return refused.map(({ id, reason }) => ({ externalId: id, field: 'date_create', reason }));
}

/**
 * The orders the service skips for an invalid format when its answer counts them without naming them: the orders
 * are sent again in halves (add-orders is an upsert by order id, so a repeat changes nothing) until each skipped
 * one stands alone. At most about 2·k·log2(n) requests for k of n orders; a half that skips none is done.
 */
async function skippedByHalves(tracker: TrackerClient, orders: AddOrder[], expected: number): Promise<string[]> {
  if (orders.length === 0 || expected <= 0) return [];
  if (orders.length === 1) return [String(orders[0].id)];
  const middle = Math.ceil(orders.length / 2);
  const found: string[] = [];
  for (const half of [orders.slice(0, middle), orders.slice(middle)]) {
    if (found.length >= expected) break;
    const answer: AddOrdersResponse = await tracker.orders.addBatch(SerializedJson.of(half));
    const skipped = Number(answer.skipped_by_invalid_format) || 0;
    if (!skipped) continue;
    const halfIds = half.map((order) => String(order.id));
    const named = idsInComment(answer.comment, halfIds);
    found.push(...named);
    if (skipped > named.length) found.push(...(await skippedByHalves(tracker, half.filter((order) => !named.includes(String(order.id))), skipped - named.length)));
  }
  return found;
}
