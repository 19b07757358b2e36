import { UnknownOutcomeError } from '../../connectors/lead-delivery';
import { sleep } from '../../http/retry-policy';
import type { EngineLogger } from '../engine-logger';

/** how many times a create whose outcome stayed unknown (and that the CRM does not have) is sent again in one pass */
const CREATE_ATTEMPTS = 3;

/** What a create into the CRM runs with: the pass's logger and its stop signal. */
export interface CreateScope {
  logger: EngineLogger;
  signal?: AbortSignal;
}

/**
 * A create into the CRM that is never made twice (a lead's deal, contact or note, a manager's task): when its
 * outcome is unknown (UnknownOutcomeError: a timeout, a dropped connection, a 5xx that is no rate refusal) it is
 * looked up first (`lookUp`, given when it was sent and when its outcome came; the id of what landed, or null) and
 * sent again only when it did not land, up to CREATE_ATTEMPTS. Without a look-up the error stands.
 */
export async function sendOnce(
  scope: CreateScope, what: string, send: () => Promise<string>, lookUp: ((sentAt: number, outcomeAt: number) => Promise<string | null>) | null,
): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const sentAt = Date.now();
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof UnknownOutcomeError) || !lookUp) throw error;
      scope.logger.warn(`${what}: its outcome is unknown (${error.message}); looking it up`);
      const landed = await lookUp(sentAt, Date.now());
      if (landed) return landed;
      if (attempt >= CREATE_ATTEMPTS || scope.signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** How long a look-up waits: the CRM's search lag after the send, and the settle time after the unknown outcome. */
export interface LookupWait {
  /** lookup_lag_seconds: the CRM's search index (HubSpot's) shows a record a moment after the write */
  lagMs: number;
  /** settle_seconds: a gateway's 504 or our timeout can come while the CRM still makes the record */
  settleMs: number;
}

/**
 * Waits until a create whose outcome is unknown can be looked up: `lagMs` after it was sent and `settleMs` after its
 * outcome came, the later of the two. A look-up before then could miss a record that lands and make it twice. For a
 * pending create found at a pass's start both count from when it was sent. Ends early on shutdown.
 */
export async function lookupSettled(scope: CreateScope, what: string, sentAt: number, outcomeAt: number, wait: LookupWait): Promise<void> {
  const sent = Number.isFinite(sentAt) ? sentAt : 0;
  const bySearch = sent + wait.lagMs;
  const bySettle = (Number.isFinite(outcomeAt) ? outcomeAt : sent) + wait.settleMs;
  const ms = Math.max(bySearch, bySettle) - Date.now();
  if (ms <= 0) return;
  const seconds = Math.ceil(ms / 1000);
  scope.logger.log(bySearch >= bySettle
    ? `waiting ${seconds} s for the CRM's search to show ${what} created moments ago before looking it up`
    : `waiting ${seconds} s for the CRM to finish ${what} create whose outcome is unknown (settle_seconds) before looking it up`);
  await sleep(ms, scope.signal);
  if (scope.signal?.aborted) throw new Error(`stopped while waiting to look ${what} up`);
}
