import type { EventEmitter } from 'events';
import { AlertConfig, AlertEvent, durationMs } from '../config/alert-config';
import type { ConnectionConfig } from '../config/config.schema';
import { projectNameOf } from '../config/project-targets';
import type { RunSummary } from '../engine';
import type { AlertKey } from '../store/repositories/alert.store';
import type { StoreRepositories } from '../store/store-repositories';
import type { AlertDispatcher, AlertLogger } from './alert-dispatcher';
import { AlertNotice } from './alert-notice';
import { conditionKey, conditionOf, runConditions, runCounters, runName } from './run-conditions';

export interface EvaluatorOptions {
  /** how often no_success_for and the reminders are checked */
  checkIntervalMs: number;
  /** the daemon's status page, put in every alert */
  statusUrl: string;
}

export const DEFAULT_CHECK_INTERVAL_MS = 60_000;

/** Longer than any delivery's attempts and waits take (DEFAULT_DISPATCH): a delivery pending this long was abandoned. */
const ABANDONED_AFTER_MS = 30 * 60_000;

/**
 * Turns finished runs and the passing of time into alerts. Each condition (alert, connection, event) is alerted
 * once, reminded every `repeat` while it lasts, and followed by one `recovered` when it ends; each of these sends
 * is claimed on the condition's row in the store first, so daemons sharing a store send it once between them.
 * Runs only feed it: it listens to the engine's 'finished' event, and nothing it does can fail or slow a run.
 */
export class AlertEvaluator {
  private timer: NodeJS.Timeout | null = null;
  private events: EventEmitter | null = null;
  private readonly work = new Set<Promise<void>>();
  private readonly onFinished = (summary: RunSummary): void => this.track(this.evaluateRun(summary));

  constructor(
    private readonly alerts: readonly AlertConfig[],
    private readonly connections: readonly ConnectionConfig[],
    private readonly store: Pick<StoreRepositories, 'alerts' | 'runs' | 'connections'>,
    private readonly dispatcher: AlertDispatcher,
    private readonly logger: AlertLogger,
    private readonly options: EvaluatorOptions,
  ) {}

  /** Listens to `events` ('finished') and checks the timed conditions now (downtime counts) and every interval. */
  start(events: EventEmitter): void {
    if (this.alerts.length === 0) return;
    this.events = events;
    events.on('finished', this.onFinished);
    this.track(this.check());
    this.timer = setInterval(() => this.track(this.check()), this.options.checkIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.events?.off('finished', this.onFinished);
    this.events = null;
    await this.settled();
  }

  /** Resolves once every evaluation started so far is done (its messages are queued). */
  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  async evaluateRun(run: RunSummary): Promise<void> {
    for (const alert of this.watching(run.connectionId)) {
      const ended: AlertEvent[] = [];
      for (const condition of runConditions(run, alert)) {
        if (!alert.events.includes(condition.event)) continue;
        const key = this.key(alert, run.connectionId, conditionKey(condition.event, run));
        if (condition.holds) {
          const claim = await this.store.alerts.raise(key, { runId: run.runId, message: condition.message }, durationMs(alert.repeat));
          if (claim) this.dispatcher.send(alert, this.notice(condition.event, run.connectionId, run.runId, condition.message, runCounters(run), claim === 'reminder'), claim === 'reminder');
        } else if (await this.store.alerts.end(key)) {
          ended.push(condition.event);
        }
      }
      // the connection's health is its sync's: only a sync ends no_success_for
      if (run.status === 'succeeded' && run.direction !== 'outbound' && alert.events.includes('no_success_for')) {
        if (await this.store.alerts.end(this.key(alert, run.connectionId, 'no_success_for'))) ended.push('no_success_for');
      }
      if (ended.length > 0 && alert.events.includes('recovered')) {
        const message = `${run.connectionId}: recovered in ${runName(run)} (${run.status}): ${ended.join(', ')} no longer ${ended.length > 1 ? 'hold' : 'holds'}`;
        this.dispatcher.send(alert, this.notice('recovered', run.connectionId, run.runId, message, runCounters(run)));
      }
    }
  }

  /** no_success_for of scheduled connections, reminders of the conditions still active, deliveries a stopped daemon left pending. */
  async check(): Promise<void> {
    await this.store.alerts.abandonPending(new Date(Date.now() - ABANDONED_AFTER_MS).toISOString(), 'the daemon sending it stopped before it was delivered');
    for (const alert of this.alerts) {
      if (!alert.events.includes('no_success_for')) continue;
      for (const connection of this.connections) {
        // a paused connection is meant not to run
        if (!connection.schedule || connection.paused || !this.watches(alert, connection.id)) continue;
        await this.checkNoSuccess(alert, connection.id);
      }
    }
    const byId = new Map(this.alerts.map((a) => [a.id, a]));
    for (const state of await this.store.alerts.active()) {
      const alert = byId.get(state.alert_id);
      const { event } = conditionOf(state.event);
      // no_success_for reminds itself (its message says how long by now); a condition of an alert removed from the config stays quiet
      if (!alert || event === 'no_success_for' || !alert.events.includes(event as AlertEvent)) continue;
      // nor one of a connection no longer configured or watched
      if (!this.connections.some((c) => c.id === state.connection_id) || !this.watches(alert, state.connection_id)) continue;
      const key = this.key(alert, state.connection_id, state.event);
      if (await this.store.alerts.remind(key, durationMs(alert.repeat))) {
        const notice = this.notice(event as AlertEvent, state.connection_id, state.run_id, state.message ?? state.event, null, true);
        this.dispatcher.send(alert, notice, true);
      }
    }
  }

  private async checkNoSuccess(alert: AlertConfig, connectionId: string): Promise<void> {
    const limitMs = durationMs(alert.no_success_for);
    const { rows } = await this.store.runs.page({ connectionId, status: 'succeeded', direction: 'sync' }, { limit: 1, offset: 0 });
    const lastSuccess = rows[0]?.finished_at ?? null;
    // never succeeded: counted from when the daemon first knew the connection
    const row = await this.store.connections.get(connectionId);
    if (row?.paused) return;
    const since = lastSuccess ?? row?.created_at ?? null;
    if (!since || Date.now() - Date.parse(since) < limitMs) return;
    const hours = Math.floor((Date.now() - Date.parse(since)) / 3_600_000);
    const message = lastSuccess
      ? `${connectionId}: no successful run for ${hours >= 1 ? `${hours}h` : 'less than an hour'} (last success ${lastSuccess}; alert after ${alert.no_success_for})`
      : `${connectionId}: no successful run yet since ${since} (alert after ${alert.no_success_for})`;
    const claim = await this.store.alerts.raise(this.key(alert, connectionId, 'no_success_for'), { runId: rows[0]?.id ?? null, message }, durationMs(alert.repeat));
    if (claim) this.dispatcher.send(alert, this.notice('no_success_for', connectionId, rows[0]?.id ?? null, message, null, claim === 'reminder'), claim === 'reminder');
  }

  private watching(connectionId: string): AlertConfig[] {
    return this.alerts.filter((alert) => this.watches(alert, connectionId));
  }

  /** The alert's `connections` name the connection, and its `projects` (when given) the connection's project. */
  private watches(alert: AlertConfig, connectionId: string): boolean {
    if (!alert.connections.some((id) => id === '*' || id.toLowerCase() === connectionId.toLowerCase())) return false;
    if (!alert.projects) return true;
    const connection = this.connections.find((c) => c.id === connectionId);
    return !!connection && alert.projects.includes(projectNameOf(connection));
  }

  private key(alert: AlertConfig, connectionId: string, event: string): AlertKey {
    return { alertId: alert.id, connectionId, event };
  }

  private notice(event: AlertEvent, connection: string, runId: number | null, message: string, counters: Record<string, number> | null, reminder = false): AlertNotice {
    return {
      event, connection, run_id: runId, message: reminder ? `Reminder: ${message}` : message, counters,
      status_url: this.options.statusUrl, at: new Date().toISOString(),
    };
  }

  private track(job: Promise<void>): void {
    const tracked = job
      .catch((error) => this.logger.error(`alerts: ${(error as Error)?.message ?? error}`))
      .finally(() => this.work.delete(tracked));
    this.work.add(tracked);
  }
}
