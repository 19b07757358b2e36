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
}

export function createSourceLimits(rateLimit: RateLimitDefinition | undefined): SourceLimits {
  const minTime = rateLimit ? Math.ceil((rateLimit.per_seconds * 1000) / rateLimit.requests) : 0;
  return {
    limiter: new Bottleneck({ minTime, maxConcurrent: 4 }),
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
