import Bottleneck from 'bottleneck';
import * as http from 'http';
import * as https from 'https';
import { FirstRequestGate, Spacer, spacingMs } from '../../../src/connector';
import { RateLimitDefinition } from '../definition/source-definition';

/**
 * One limiter and one pair of keep-alive agents per run of a connection (its CrmSession), shared by the run's
 * streams, writes and lead deliveries, so a CRM's documented rate limit holds for the whole run, not per request
 * loop. One run per connection goes at a time across the cluster (see CrmSession): per run is per connection.
 */
export interface SourceLimits {
  /** Sends one request within the CRM's rate limit: at most 4 at once, spaced (see createSourceLimits). */
  schedule<T>(send: () => Promise<T>): Promise<T>;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** stops the limiter: requests still waiting are dropped */
  stop(): Promise<void>;
}

/**
 * The CRM counts requests where they arrive, in a sliding window: the spacing has a margin and counts from the
 * moment the previous request actually left (Spacer), and the run's first request is answered before the next
 * leaves (FirstRequestGate: its cold path, a TLS handshake, could bring it in on the heels of the next).
 * The run starts as if a request had just gone: the run's first request waits one interval, so a run that
 * follows another at once (a sync's write-back, the next tick, another daemon's run) keeps the spacing from the
 * last request of the run before.
 */
export function createSourceLimits(rateLimit: RateLimitDefinition | undefined): SourceLimits {
  const concurrency = new Bottleneck({ maxConcurrent: 4 });
  const spacer = rateLimit ? new Spacer(spacingMs(rateLimit.requests, rateLimit.per_seconds * 1000)) : null;
  spacer?.hold();
  const firstRequest = new FirstRequestGate();
  const spaced = async <T>(send: () => Promise<T>): Promise<T> => {
    if (spacer) (await spacer.turn())();
    return send();
  };
  return {
    schedule: (send) => (spacer ? firstRequest.run(() => concurrency.schedule(() => spaced(send))) : concurrency.schedule(send)),
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 4 }),
    stop: () => concurrency.disconnect(),
  };
}

/** Closes the agents' sockets (idle or not) and stops the limiter: the end of the run. */
export async function closeSourceLimits(limits: SourceLimits): Promise<void> {
  limits.httpAgent.destroy();
  limits.httpsAgent.destroy();
  await limits.stop();
}
