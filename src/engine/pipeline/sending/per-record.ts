import { errorText } from '../../engine-errors';
import { isAccessRefusal, isOutcomeUnknown, isTrackerApiError } from '../../../tracker/tracker-error';
import type { BatchAnswer, OutgoingItem } from './stream-handler';

/** Looks a record up after a create call that may have landed: true when the service has it. */
export type LandedCheck<P> = (item: OutgoingItem<P>) => Promise<boolean>;

export interface SendEachOptions<P> {
  /** the field a refusal is reported on */
  field?: string;
  /** how to find out whether a create call that timed out landed; without it such a record is uncertain */
  landed?: LandedCheck<P>;
}

/** A record looked up as absent is sent again at most this often before it is reported uncertain. */
const MAX_RESENDS = 2;

/**
 * Sends the records of a batch one call each, in order. A call the service refuses for this record
 * (a non-retryable error) rejects only that record; one that still fails after the client's retries
 * (network, 5xx, 429) fails the batch, so nothing after it is acknowledged. A refused Api-key or
 * project is the run's problem, not the record's: it fails the batch too. A create call that may have
 * landed (the client does not repeat it) is looked up with `landed`: found, it is acknowledged; absent,
 * it is sent again; where it cannot be known, the record is reported uncertain and not sent again.
 */
export async function sendEach<P>(items: OutgoingItem<P>[], call: (item: OutgoingItem<P>) => Promise<unknown>, options: SendEachOptions<P> = {}): Promise<BatchAnswer> {
  const answer: BatchAnswer = { refused: [], uncertain: [] };
  for (const item of items) {
    try {
      const doubt = await deliver(item, call, options.landed);
      if (doubt) answer.uncertain!.push({ externalId: item.externalId, reason: doubt });
    } catch (e) {
      if (!isRefusal(e)) throw e;
      answer.refused.push({ externalId: item.externalId, field: options.field ?? 'id', reason: `the service refused it: ${errorText(e)}`.slice(0, 500) });
    }
  }
  return answer;
}

/** Sends one record; resolves with the reason it is uncertain, or null once it is known to be there. */
async function deliver<P>(item: OutgoingItem<P>, call: (item: OutgoingItem<P>) => Promise<unknown>, landed: LandedCheck<P> | undefined): Promise<string | null> {
  for (let resends = 0; ; resends++) {
    try {
      await call(item);
      return null;
    } catch (e) {
      if (!isOutcomeUnknown(e)) throw e;
      if (!landed) return uncertainReason(e.message, 'the service offers no way to look it up');
      let found: boolean;
      try {
        found = await landed(item);
      } catch (lookup) {
        if (isAccessRefusal(lookup)) throw lookup;
        return uncertainReason(e.message, `looking it up failed: ${errorText(lookup)}`);
      }
      if (found) return null;
      if (resends >= MAX_RESENDS) return uncertainReason(e.message, `looked up as absent, sent ${resends + 1} times`);
    }
  }
}

/** The reason kept with an uncertain record: what happened, and what the user can do. */
export function uncertainReason(failure: string, why: string): string {
  return (
    `uncertain: ${failure}; ${why}, so it was not sent again, now or by later runs (a duplicate is worse than a gap): ` +
    `check the service, and if it is missing retry the run's rejected records (POST /api/runs/<run>/rejected/retry)`
  ).slice(0, 1000);
}

/** true when `e` is the service refusing this call's record (not a transient failure, not the key or project). */
export function isRefusal(e: unknown): boolean {
  return isTrackerApiError(e) && !e.retryable && !isAccessRefusal(e);
}
