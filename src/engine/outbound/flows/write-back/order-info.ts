import { TrackerApiError } from '../../../../tracker/tracker-error';
import { parseTrackerTimestamp } from '../../../../tracker/tracker-date';
import type { TrackerClient } from '../../../../tracker/tracker-client';
import type { Visit } from '../../../../tracker/types/visits.types';

/**
 * Visits asked of the visit list in one request (`id in [...]`): one request per this many deals looked up,
 * so the visit list's own limit (1 a second, 15 a minute) never holds the pass up.
 */
export const VISITS_PER_REQUEST = 100;

/** An order of the window with the visit it was created on (the full Visit record, as the order list gives it). */
export interface AttributedOrder {
  id: string;
  visit: Visit;
}

/**
 * The orders of these deals, one deal at a time: its order info (GET /project/orders/{id}/info) tells when it
 * was created and its visit's id; the visits of each chunk then come from the visit list in one request, as
 * full records (order info's visit summary has no UTM tags and no channel levels: the values written must
 * be those the order list would have given). A deal the service does not have (404), created before `from`,
 * or without a visit is left out, as the order list of the window would leave it out.
 */
export async function* ordersByInfo(
  tracker: TrackerClient, dealIds: string[], from: Date, signal: AbortSignal | undefined, where: string,
  onDeal?: (done: number) => void,
): AsyncGenerator<AttributedOrder[]> {
  let done = 0;
  for (let start = 0; start < dealIds.length; start += VISITS_PER_REQUEST) {
    const visitOf = new Map<string, string>();
    for (const id of dealIds.slice(start, start + VISITS_PER_REQUEST)) {
      if (signal?.aborted) return;
      const visitId = await visitOfOrder(tracker, id, from, where);
      if (visitId) visitOf.set(id, visitId);
      onDeal?.(++done);
    }
    if (visitOf.size === 0) continue;
    const visits = await visitsById(tracker, [...new Set(visitOf.values())], where);
    const orders = [...visitOf].flatMap(([id, visitId]) => (visits.has(visitId) ? [{ id, visit: visits.get(visitId)! }] : []));
    if (orders.length) yield orders;
  }
}

/** The id of the visit a deal's order was created on, or null: no such order, created before `from`, no visit. */
async function visitOfOrder(tracker: TrackerClient, id: string, from: Date, where: string): Promise<string | null> {
  const detail = await tracker.orders.info(id).catch((error: unknown) => {
    if (error instanceof TrackerApiError && error.httpStatus === 404) return null;
    throw new Error(`${where}: the service's order info of deal ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  const order = detail?.order;
  if (!order) return null;
  if (parseTrackerTimestamp(order.creation_date).getTime() < from.getTime()) return null;
  const visitId = order.visit_id || order.visit?.id;
  return visitId ? String(visitId) : null;
}

async function visitsById(tracker: TrackerClient, ids: string[], where: string): Promise<Map<string, Visit>> {
  const answer = await tracker.visits.list({ filters: [['id', 'in', ids]], limit: ids.length }).catch((error: unknown) => {
    throw new Error(`${where}: the service's visit list (${ids.length} visits by id) failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  const data = Array.isArray(answer.data) ? answer.data : answer.data ? [answer.data] : [];
  return new Map(data.map((visit) => [String(visit.id), visit]));
}
