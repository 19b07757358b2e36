import { isAccessRefusal, isTrackerApiError } from '../../tracker/tracker-error';
import type { BatchAnswer, OutgoingItem } from '../stream-handlers';

/**
 * Sends the records of a batch one call each, in order. A call the service refuses for this record
 * (a non-retryable error) rejects only that record; one that still fails after the client's retries
 * (network, 5xx, 429) fails the batch, so nothing after it is acknowledged. A refused Api-key or
 * project is the run's problem, not the record's: it fails the batch too.
 */
export async function sendEach<P>(items: OutgoingItem<P>[], call: (item: OutgoingItem<P>) => Promise<unknown>, field = 'id'): Promise<BatchAnswer> {
  const answer: BatchAnswer = { refused: [] };
  for (const item of items) {
    try {
      await call(item);
    } catch (e) {
      if (!isRefusal(e)) throw e;
      answer.refused.push({ externalId: item.externalId, field, reason: `the service refused it: ${e.message}`.slice(0, 500) });
    }
  }
  return answer;
}

/** true when `e` is the service refusing this call's record (not a transient failure, not the key or project). */
export function isRefusal(e: unknown): boolean {
  return isTrackerApiError(e) && !e.retryable && !isAccessRefusal(e);
}
