import Bottleneck from 'bottleneck';
import * as http from 'http';
import * as https from 'https';
import { RateLimitDefinition } from '../definition/source-definition';

/**
 * One limiter and one pair of keep-alive agents per connection, shared by its streams and runs, so a
 * CRM's documented rate limit holds for the whole connection, not per request loop.
 */
export interface SourceLimits {
  limiter: Bottleneck;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
}

const byConnection = new Map<string, SourceLimits>();

export function sourceLimits(connectionId: string, rateLimit: RateLimitDefinition | undefined): SourceLimits {
  const minTime = rateLimit ? Math.ceil((rateLimit.per_seconds * 1000) / rateLimit.requests) : 0;
  const key = `${connectionId}|${minTime}`;
  let limits = byConnection.get(key);
  if (!limits) {
    limits = {
      limiter: new Bottleneck({ minTime, maxConcurrent: 4 }),
      httpAgent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
      httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 4 }),
    };
    byConnection.set(key, limits);
  }
  return limits;
}

/** Closes idle sockets (tests, shutdown). */
export function releaseSourceLimits(): void {
  for (const limits of byConnection.values()) {
    limits.httpAgent.destroy();
    limits.httpsAgent.destroy();
    void limits.limiter.disconnect();
  }
  byConnection.clear();
}
