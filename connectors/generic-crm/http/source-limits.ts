import Bottleneck from 'bottleneck';
import * as http from 'http';
import * as https from 'https';
import { KindRateLimitDefinition, RateLimitDefinition } from '../definition/source-definition';

/**
 * One limiter and one pair of keep-alive agents per run of a connection (its CrmSession), shared by the run's
 * streams, writes and lead deliveries, so a CRM's documented rate limit holds for the whole run, not per request
 * loop. One run per connection goes at a time across the cluster (see CrmSession): per run is per connection.
 * A kind of request with a limit of its own (`rate_limits`: HubSpot's search) also waits for its kind's limiter.
 */
export interface SourceLimits {
  limiter: Bottleneck;
  kinds: KindLimiter[];
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** when the CRM last refused a request for the rate (epoch ms): a block that follows is named as one */
  lastRateRefusal?: { at: number; status: number };
}

export interface KindLimiter {
  name: string;
  path: RegExp;
  limiter: Bottleneck;
}

/**
 * A kind's requests leave a tenth further apart than its limit allows: the CRM counts them when they arrive, and
 * two that left exactly 1/per_second apart may arrive closer (a slow socket, a busy event loop), making one
 * second hold one too many.
 */
const KIND_MARGIN = 1.1;

/**
 * The run's limiter starts as if a request had just gone: the run's first request waits one interval, so a run
 * that follows another at once (a sync's write-back, the next tick, another daemon's run) keeps the spacing from
 * the last request of the run before. The kinds' limiters likewise.
 */
export function createSourceLimits(rateLimit: RateLimitDefinition | undefined, kinds: Record<string, KindRateLimitDefinition> = {}): SourceLimits {
  const checked = Object.entries(kinds).map(([name, kind]) => checkKind(name, kind));
  const minTime = rateLimit ? Math.ceil((rateLimit.per_seconds * 1000) / rateLimit.requests) : 0;
  const limiter = new Bottleneck({ minTime, maxConcurrent: 4 });
  if (minTime > 0) void limiter.schedule(async () => undefined);
  return {
    limiter,
    kinds: checked.map(({ name, path, perSecond }) => {
      const kindLimiter = new Bottleneck({ minTime: Math.ceil((1000 / perSecond) * KIND_MARGIN), maxConcurrent: 1 });
      void kindLimiter.schedule(async () => undefined);
      return { name, path, limiter: kindLimiter };
    }),
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 4 }),
  };
}

/** A kind's settings, checked (rate_limits is a map the settings class cannot validate per entry). */
function checkKind(name: string, kind: KindRateLimitDefinition): { name: string; path: RegExp; perSecond: number } {
  const where = `rate_limits.${name}`;
  if (typeof kind !== 'object' || kind === null) throw new Error(`${where}: must be { per_second, path }`);
  if (typeof kind.per_second !== 'number' || !(kind.per_second > 0)) throw new Error(`${where}.per_second: must be a positive number`);
  if (typeof kind.path !== 'string' || kind.path === '') throw new Error(`${where}.path: must be a regular expression of request paths`);
  let path: RegExp;
  try {
    path = new RegExp(kind.path);
  } catch (error) {
    throw new Error(`${where}.path: ${(error as Error).message}`);
  }
  return { name, path, perSecond: kind.per_second };
}

/**
 * Sends `transmit` within the limits: the general limiter first, then the kind's (so the kind's spacing is
 * measured where the request leaves).
 */
export function scheduleRequest<T>(limits: SourceLimits, path: string, transmit: () => Promise<T>): Promise<T> {
  const kind = limits.kinds.find((candidate) => candidate.path.test(path));
  return limits.limiter.schedule(() => (kind ? kind.limiter.schedule(transmit) : transmit()));
}

/** Closes the agents' sockets (idle or not) and stops the limiters: the end of the run. */
export async function closeSourceLimits(limits: SourceLimits): Promise<void> {
  limits.httpAgent.destroy();
  limits.httpsAgent.destroy();
  await Promise.all([limits.limiter, ...limits.kinds.map((kind) => kind.limiter)].map((limiter) => limiter.disconnect()));
}
