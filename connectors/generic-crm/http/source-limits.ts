import Bottleneck from 'bottleneck';
import * as http from 'http';
import * as https from 'https';
import { FirstRequestGate, Spacer, spacingMs } from 'tracker-sync/connector';
import { KindRateLimitDefinition, RateLimitDefinition } from '../definition/source-definition';

/**
 * One limiter and one pair of keep-alive agents per run of a connection (its CrmSession), shared by the run's
 * streams, writes and lead deliveries, so a CRM's documented rate limit holds for the whole run, not per request
 * loop. One run per connection goes at a time across the cluster (see CrmSession): per run is per connection.
 * A kind of request with a limit of its own (`rate_limits`: HubSpot's search) also waits for its kind's turn.
 */
export interface SourceLimits {
  /**
   * Sends one request within the CRM's rate limits: at most 4 at once, spaced (see createSourceLimits); a request
   * to `path` of a kind with a limit of its own is spaced by that kind too.
   */
  schedule<T>(send: () => Promise<T>, path?: string): Promise<T>;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** when the CRM last refused a request for the rate (epoch ms): a block that follows is named as one */
  lastRateRefusal?: { at: number; status: number };
  /** stops the limiter: requests still waiting are dropped */
  stop(): Promise<void>;
}

interface KindSpacer {
  name: string;
  path: RegExp;
  spacer: Spacer;
}

/**
 * The CRM counts requests where they arrive, in a sliding window: the spacing has a margin and counts from the
 * moment the previous request actually left (Spacer), and the run's first request is answered before the next
 * leaves (FirstRequestGate: its cold path, a TLS handshake, could bring it in on the heels of the next).
 * The run starts as if a request had just gone: the run's first request waits one interval, so a run that
 * follows another at once (a sync's write-back, the next tick, another daemon's run) keeps the spacing from the
 * last request of the run before. The kinds' spacing likewise (HubSpot's search, 4 a second: 275 ms apart).
 */
export function createSourceLimits(rateLimit: RateLimitDefinition | undefined, kinds: Record<string, KindRateLimitDefinition> = {}): SourceLimits {
  const kindSpacers: KindSpacer[] = Object.entries(kinds).map(([name, kind]) => {
    const checked = checkKind(name, kind);
    const spacer = new Spacer(spacingMs(checked.perSecond, 1000));
    spacer.hold();
    return { name, path: checked.path, spacer };
  });
  const concurrency = new Bottleneck({ maxConcurrent: 4 });
  const spacer = rateLimit ? new Spacer(spacingMs(rateLimit.requests, rateLimit.per_seconds * 1000)) : null;
  spacer?.hold();
  const firstRequest = new FirstRequestGate();
  // the kind's turn first, then the general one; both count from the moment the request leaves
  const spaced = async <T>(send: () => Promise<T>, path: string | undefined): Promise<T> => {
    const kind = path === undefined ? undefined : kindSpacers.find((candidate) => candidate.path.test(path));
    const leaveKind = kind ? await kind.spacer.turn() : null;
    const leave = spacer ? await spacer.turn() : null;
    leave?.();
    leaveKind?.();
    return send();
  };
  const limited = spacer !== null || kindSpacers.length > 0;
  return {
    schedule: (send, path) => (limited
      ? firstRequest.run(() => concurrency.schedule(() => spaced(send, path)))
      : concurrency.schedule(send)),
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 4 }),
    stop: () => concurrency.disconnect(),
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

/** Sends `transmit` to `path` within the limits: the general one and, for a kind with its own, the kind's. */
export function scheduleRequest<T>(limits: SourceLimits, path: string, transmit: () => Promise<T>): Promise<T> {
  return limits.schedule(transmit, path);
}

/** Closes the agents' sockets (idle or not) and stops the limiters: the end of the run. */
export async function closeSourceLimits(limits: SourceLimits): Promise<void> {
  limits.httpAgent.destroy();
  limits.httpsAgent.destroy();
  await limits.stop();
}
