import { isTrackerApiError } from '../../tracker/tracker-error';
import type { BatchAnswer, OutgoingItem } from '../stream-handlers';

/**
 * Sends the records of a batch one call each, in order. A call the service refuses for this record
 * (a non-retryable error) rejects only that record; one that still fails after the client's retries
 * (network, 5xx, 429) fails the batch, so nothing after it is acknowledged.
 */
export async function sendEach<P>(items: OutgoingItem<P>[], call: (item: OutgoingItem<P>) => Promise<unknown>, field = 'id'): Promise<BatchAnswer> {
  const answer: BatchAnswer = { refused: [] };
  for (const item of items) {
    try {
      await call(item);
    } catch (e) {
      if (!isTrackerApiError(e) || e.retryable) throw e;
      answer.refused.push({ externalId: item.externalId, field, reason: `the service refused it: ${e.message}`.slice(0, 500) });
    }
  }
  return answer;
}

/** true when `e` is the service refusing the call (not a transient failure). */
export function isRefusal(e: unknown): boolean {
  return isTrackerApiError(e) && !e.retryable;
}
