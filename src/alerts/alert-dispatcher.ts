import type { AlertConfig } from '../config/alert-config';
import { Backoff, backoffDelayMs, sleep } from '../http/retry-policy';
import type { AlertStore } from '../store/repositories/alert.store';
import type { AlertNotice } from './alert-notice';
import { ALERT_CHANNELS, DeliveryError } from './channels';

export interface AlertLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface DispatchOptions {
  /** attempts per message, the first included */
  attempts: number;
  backoff: Backoff;
  /** messages being delivered at once at most; beyond it a message is recorded as failed, not queued (no storm, no leak) */
  maxPending: number;
  /** one attempt's timeout */
  timeoutMs: number;
}

export const DEFAULT_DISPATCH: DispatchOptions = {
  attempts: 6,
  backoff: { baseMs: 2000, maxMs: 5 * 60_000, jitter: true },
  maxPending: 100,
  timeoutMs: 10_000,
};

export interface DispatchHooks {
  logger: AlertLogger;
  /** cuts every secret the configuration holds out of a text */
  scrub: (text: string) => string;
  onSent?: (event: string, type: string) => void;
  onFailed?: (event: string, type: string) => void;
}

export interface DeliveryResult {
  delivery_id: number | null;
  status: 'sent' | 'failed';
  attempts: number;
  error: string | null;
}

/**
 * Delivers alert messages off the run's path: `send` returns at once, the attempts (with backoff) go on in the
 * background, each recorded in the store (alert_delivery) and logged. A failure is never thrown at a run.
 */
export class AlertDispatcher {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();
  private readonly options: DispatchOptions;

  constructor(
    private readonly store: AlertStore,
    private readonly hooks: DispatchHooks,
    options: Partial<DispatchOptions> = {},
  ) {
    this.options = { ...DEFAULT_DISPATCH, ...options };
  }

  /**
   * Queues a message for `alert`; never throws, never waits. `settled` hears how its delivery ended (`sent`, or
   * `failed` once every attempt failed, or when it could not even be queued): a failed one is not a send.
   */
  send(alert: AlertConfig, notice: AlertNotice, reminder = false, settled?: (result: DeliveryResult) => void): void {
    const failed = (error: string): DeliveryResult => ({ delivery_id: null, status: 'failed', attempts: 0, error });
    if (this.stopping.signal.aborted) {
      settled?.(failed('the daemon is stopping'));
      return;
    }
    if (this.pending.size >= this.options.maxPending) {
      const text = `alert ${alert.id} (${alert.type}): ${this.options.maxPending} messages are still being delivered; ${notice.event} for ${notice.connection ?? '-'} dropped`;
      this.hooks.logger.error(text);
      this.hooks.onFailed?.(notice.event, alert.type);
      void this.record(alert, notice, reminder).then(async (id) => {
        if (id !== null) await this.finish(id, 'failed', 0, 'too many messages pending');
      });
      settled?.(failed('too many messages pending'));
      return;
    }
    const job: Promise<unknown> = this.deliver(alert, notice, reminder, this.options.attempts)
      .catch((error): DeliveryResult => {
        const text = this.hooks.scrub(String((error as Error)?.message ?? error));
        this.hooks.logger.error(`alert ${alert.id}: ${text}`);
        return failed(text);
      })
      .then((result) => settled?.(result))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** One attempt, awaited: POST /api/alerts/{id}/test answers with it. */
  test(alert: AlertConfig, notice: AlertNotice): Promise<DeliveryResult> {
    return this.deliver(alert, notice, false, 1);
  }

  /** Resolves once every message queued so far is delivered or given up. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Waits up to `graceMs` for deliveries in flight, then ends their waits between attempts. */
  async stop(graceMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.stopping.abort();
    await this.idle();
  }

  private async deliver(alert: AlertConfig, raw: AlertNotice, reminder: boolean, attempts: number): Promise<DeliveryResult> {
    const notice = { ...raw, message: this.hooks.scrub(raw.message) };
    const label = `alert ${alert.id} (${alert.type}) ${notice.event}${reminder ? ' reminder' : ''}${notice.connection ? ` for ${notice.connection}` : ''}`;
    const id = await this.record(alert, notice, reminder);
    let error: string | null = null;
    let attempt = 0;
    while (attempt < attempts && !this.stopping.signal.aborted) {
      attempt++;
      try {
        await ALERT_CHANNELS[alert.type](alert, notice, { timeoutMs: this.options.timeoutMs });
        if (id !== null) await this.finish(id, 'sent', attempt, error, new Date().toISOString());
        this.hooks.onSent?.(notice.event, alert.type);
        this.hooks.logger.log(`${label} sent${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
        return { delivery_id: id, status: 'sent', attempts: attempt, error: null };
      } catch (e) {
        error = this.hooks.scrub(e instanceof Error ? e.message : String(e));
        const retryable = !(e instanceof DeliveryError) || e.retryable;
        if (!retryable || attempt >= attempts) break;
        const wait = backoffDelayMs(attempt, this.options.backoff);
        this.hooks.logger.warn(`${label}: attempt ${attempt} of ${attempts} failed (${error}); next in ${Math.round(wait / 100) / 10}s`);
        if (id !== null) await this.update(id, { status: 'pending', attempts: attempt, last_error: error });
        await sleep(wait, this.stopping.signal);
      }
    }
    if (id !== null) await this.finish(id, 'failed', attempt, error);
    this.hooks.onFailed?.(notice.event, alert.type);
    this.hooks.logger.error(`${label} not delivered after ${attempt} attempt(s): ${error ?? 'the daemon stopped'}`);
    return { delivery_id: id, status: 'failed', attempts: attempt, error };
  }

  private async record(alert: AlertConfig, notice: AlertNotice, reminder: boolean): Promise<number | null> {
    try {
      const row = await this.store.addDelivery({
        alert_id: alert.id, type: alert.type, event: notice.event, connection_id: notice.connection, run_id: notice.run_id, reminder, message: notice.message,
        project: notice.project ?? null,
      });
      return row.id;
    } catch (e) {
      // the message still goes out: the store being unwell is one of the things it may be about
      this.hooks.logger.warn(`alert ${alert.id}: could not record the delivery (${this.hooks.scrub((e as Error).message)})`);
      return null;
    }
  }

  private finish(id: number, status: 'sent' | 'failed', attempts: number, error: string | null, sentAt: string | null = null): Promise<void> {
    return this.update(id, { status, attempts, last_error: error, sent_at: sentAt });
  }

  private async update(id: number, patch: Parameters<AlertStore['updateDelivery']>[1]): Promise<void> {
    try {
      await this.store.updateDelivery(id, patch);
    } catch (e) {
      this.hooks.logger.warn(`alert delivery ${id}: could not record its state (${this.hooks.scrub((e as Error).message)})`);
    }
  }
}
