import Bottleneck from 'bottleneck';
import * as http from 'http';
import * as https from 'https';
import { RateLimitDefinition } from '../definition/source-definition';

/**
 * One limiter and one pair of keep-alive agents per run of a connection (its CrmSession), shared by the run's
 * streams, writes and lead deliveries, so a CRM's documented rate limit holds for the whole run, not per request
 * loop. One run per connection goes at a time across the cluster (see CrmSession): per run is per connection.
 */
export interface SourceLimits {
  limiter: Bottleneck;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** when the CRM last refused a request for the rate (epoch ms): a block that follows is named as one */
  lastRateRefusal?: { at: number; status: number };
}

/**
 * The run's limiter starts as if a request had just gone: the run's first request waits one interval, so a run
 * that follows another at once (a sync's write-back, the next tick, another daemon's run) keeps the spacing from
 * the last request of the run before.
 */
export function createSourceLimits(rateLimit: RateLimitDefinition | undefined): SourceLimits {
  const minTime = rateLimit ? Math.ceil((rateLimit.per_seconds * 1000) / rateLimit.requests) : 0;
  const limiter = new Bottleneck({ minTime, maxConcurrent: 4 });
  if (minTime > 0) void limiter.schedule(async () => undefined);
  return {
    limiter,
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 4 }),
  };
}

/** Closes the agents' sockets (idle or not) and stops the limiter: the end of the run. */
export async function closeSourceLimits(limits: SourceLimits): Promise<void> {
  limits.httpAgent.destroy();
  limits.httpsAgent.destroy();
  await limits.limiter.disconnect();
}
