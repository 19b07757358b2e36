import { operationSpacingMs, spacingMs } from '../http/rate-spacing';
import type { OperationLimit, RateLimitBudget } from '../tracker/http/rate-limits';
import type { RequestBudget } from '../tracker/http/request-budget';
import { CountGrant, RequestBudgetStore } from '../store/repositories/request-budget.store';

const HOUR_MS = 3_600_000;
/** after a 429 the per-second spacing doubles for this long, for every process of the project */
const SHRINK_MS = 60_000;
/** how far ahead one process reserves send times: beyond it, the other processes' requests interleave */
const HORIZON_MS = 250;
/** send times reserved in one statement at most (one per request waiting in this process) */
const MAX_LEASE = 100;
/** a refused hour is asked again after at most this long (the sliding hour frees requests gradually) */
const MAX_HOUR_PAUSE_MS = 5_000;

interface Waiter {
  resolve(at: number): void;
  reject(error: unknown): void;
}

/** What /metrics and the status page show of the budget, as this process last saw it. */
export interface RequestBudgetStats {
  /** requests waiting for the budget in this process now, and since when the oldest waits (epoch ms) */
  waiting: number;
  waitingSince: number | null;
  /** total time requests of this process spent waiting for the budget, the waits still going included */
  waitSecondsTotal: number;
  /** requests left in the sliding hour; send times free in the coming second */
  remaining: { hour: number; second: number };
}

/** The budget's key in the store: one per project of one service. */
export function budgetScope(baseUrl: string, project: string | undefined): string {
  return `${project ?? ''}@${baseUrl.replace(/\/+$/, '')}`.slice(0, 300);
}

/**
 * The project's request budget drawn by every process of one store (daemons, CLI): `tracker.rate_limit` is the
 * share of the whole installation, whatever the number of processes.
 * - per second: send times `1000 / per_second` apart (plus a margin, src/http/rate-spacing.ts), reserved in the store (evenly spaced across processes, so
 *   the service's sliding second is respected); the requests waiting in this process reserve theirs together;
 * - per hour: a count per clock hour in the store that survives restarts, capped over a sliding hour;
 * - the Limits table's operations: their own spaced send times.
 * Nothing is held: a process that dies leaves only reserved times that pass.
 */
export class SharedRequestBudget implements RequestBudget {
  private readonly pending: Waiter[] = [];
  private pumping = false;
  private rows: Promise<void> | null = null;
  private readonly operationRows = new Map<string, Promise<void>>();
  private reservedUntil = 0;
  private blockedUntil = 0;
  private lastHour: CountGrant | null = null;
  private readonly waitingSince = new Map<object, number>();
  private waitedMs = 0;
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: RequestBudgetStore,
    readonly scope: string,
    readonly limits: RateLimitBudget,
  ) {
    if (!(limits.per_second > 0) || !(limits.per_hour > 0)) {
      throw new RangeError(`tracker rate_limit: per_second and per_hour must be positive, got ${JSON.stringify(limits)}`);
    }
  }

  async take(limit: OperationLimit | null, clientSignal: AbortSignal): Promise<void> {
    const signal = AbortSignal.any([clientSignal, this.stopping.signal]);
    const token = {};
    this.waitingSince.set(token, Date.now());
    try {
      await this.ensureRows();
      if (limit) await sleepUntil(await this.operationSlot(limit), signal);
      for (;;) {
        const at = await this.slot(signal);
        await sleepUntil(at, signal);
        if (at >= this.blockedUntil) break; // else a 429 came meanwhile: take a later time
      }
    } finally {
      this.waitedMs += Date.now() - this.waitingSince.get(token)!;
      this.waitingSince.delete(token);
    }
    if (signal.aborted) throw new Error('the request budget wait was aborted: the client is closing');
  }

  /**
   * The process is stopping: requests still waiting for the budget give up now (their batches were not sent, so
   * the runs end at their last checkpoint) instead of holding the shutdown until the budget frees.
   */
  stop(): void {
    this.stopping.abort();
  }

  async penalize(retryAfterMs: number): Promise<void> {
    const now = Date.now();
    this.blockedUntil = Math.max(this.blockedUntil, now + retryAfterMs);
    await this.ensureRows();
    await this.store.penalize(this.scope, 'second', now + retryAfterMs, now + SHRINK_MS);
  }

  stats(now = Date.now()): RequestBudgetStats {
    const since = [...this.waitingSince.values()];
    const spacing = spacingMs(this.limits.per_second, 1000);
    const ahead = Math.max(0, this.reservedUntil - now);
    const h = this.lastHour;
    let hourUsed = 0;
    if (h && now - h.periodStart < 2 * HOUR_MS) {
      const cur = Math.floor(now / HOUR_MS) * HOUR_MS;
      const weight = 1 - (now - cur) / HOUR_MS;
      hourUsed = h.periodStart === cur ? h.used + h.prevUsed * weight : h.used * weight;
    }
    return {
      waiting: since.length,
      waitingSince: since.length ? Math.min(...since) : null,
      waitSecondsTotal: (this.waitedMs + since.reduce((sum, at) => sum + (now - at), 0)) / 1000,
      remaining: {
        hour: Math.max(0, Math.floor(this.limits.per_hour - hourUsed)),
        second: Math.max(0, Math.floor(Math.min(this.limits.per_second, (1000 - ahead) / spacing))),
      },
    };
  }

  private ensureRows(): Promise<void> {
    this.rows ??= this.store.ensure(this.scope, ['second', 'hour']).catch((e) => {
      this.rows = null;
      throw e;
    });
    return this.rows;
  }

  /** One send time of the operation's own spaced window (the Limits table's per-second and per-minute). */
  private async operationSlot(limit: OperationLimit): Promise<number> {
    const window = `op:${limit.key}`;
    let ready = this.operationRows.get(window);
    if (!ready) {
      ready = this.store.ensure(this.scope, [window]);
      this.operationRows.set(window, ready);
    }
    await ready;
    return (await this.store.reserve(this.scope, window, operationSpacingMs(limit), 1)).first;
  }

  /** This request's send time: within the hour, then spaced in the second window. */
  private slot(signal: AbortSignal): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (signal.aborted) return reject(new Error('the request budget wait was aborted: the client is closing'));
      const onAbort = () => {
        const index = this.pending.indexOf(waiter);
        if (index >= 0) this.pending.splice(index, 1);
        reject(new Error('the request budget wait was aborted: the client is closing'));
      };
      // the signal is the client's, alive as long as it: never leave a listener behind
      const done = () => signal.removeEventListener('abort', onAbort);
      const waiter: Waiter = {
        resolve: (at) => (done(), resolve(at)),
        reject: (error) => (done(), reject(error)),
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.push(waiter);
      void this.pump();
    });
  }

  /** Hands out send times to the waiting requests, reserving them together, never far ahead of now. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.pending.length) {
        await this.pause(this.reservedUntil - HORIZON_MS);
        const wanted = Math.min(this.pending.length, MAX_LEASE);
        if (!wanted) break;
        const granted = await this.hourAllowance(wanted);
        if (!granted) continue;
        const slots = await this.store.reserve(this.scope, 'second', spacingMs(this.limits.per_second, 1000), granted);
        this.reservedUntil = slots.first + slots.spacingMs * (slots.count - 1);
        // times of waiters that gave up meanwhile go unused (the budget errs on the safe side)
        for (let i = 0; i < slots.count && this.pending.length; i++) this.pending.shift()!.resolve(slots.first + i * slots.spacingMs);
      }
    } catch (error) {
      for (const waiter of this.pending.splice(0)) waiter.reject(error);
    } finally {
      this.pumping = false;
    }
  }

  /** Takes up to `wanted` requests from the hour (all, else one); 0 when nobody waits any more. */
  private async hourAllowance(wanted: number): Promise<number> {
    for (let count = wanted; this.pending.length; ) {
      const now = Date.now();
      const grant = await this.store.take(this.scope, 'hour', HOUR_MS, this.limits.per_hour, count, now);
      this.lastHour = grant;
      if (grant.granted) return count;
      if (count > 1) {
        count = 1;
        continue;
      }
      await this.pause(now + this.hourPauseMs(grant, now));
    }
    return 0;
  }

  /** Until the sliding hour frees one request, at most MAX_HOUR_PAUSE_MS, with jitter so processes spread out. */
  private hourPauseMs(grant: CountGrant, now: number): number {
    const cap = this.limits.per_hour;
    const end = grant.periodStart + HOUR_MS;
    let at = end; // this hour is full: the next one, where it frees as the weight of this one falls
    if (grant.used + 1 <= cap && grant.prevUsed > 0) at = end - HOUR_MS * ((cap - grant.used - 1) / grant.prevUsed);
    const ms = Math.min(MAX_HOUR_PAUSE_MS, Math.max(50, at - now));
    return ms * (0.8 + Math.random() * 0.4);
  }

  /** Sleeps until `until` in short steps, ending early when nobody waits any more. */
  private async pause(until: number): Promise<void> {
    for (let left = until - Date.now(); left > 0 && this.pending.length; left = until - Date.now()) {
      await new Promise((r) => setTimeout(r, Math.min(left, 1000)));
    }
  }
}

function sleepUntil(at: number, signal: AbortSignal): Promise<void> {
  const ms = at - Date.now();
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
