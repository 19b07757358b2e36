import type { EventEmitter } from 'events';
import { AlertConfig, AlertEvent, durationMs } from '../config/alert-config';
import type { ConnectionConfig } from '../config/config.schema';
import { projectNameOf } from '../config/project-targets';
import type { RunRefused, RunSummary } from '../engine';
import { OUTBOUND_FLOWS } from '../engine';
import type { AlertKey } from '../store/repositories/alert.store';
import type { AlertStateRow } from '../store/records';
import type { StoreRepositories } from '../store/store-repositories';
import { AlertClaims } from './alert-claims';
import type { AlertDispatcher, AlertLogger, DeliveryResult } from './alert-dispatcher';
import { AlertNotice } from './alert-notice';
import { conditionKey, conditionOf, MAX_ERROR_CHARS, runConditions, runCounters, runName } from './run-conditions';

export interface EvaluatorOptions {
  /** how often no_success_for and the reminders are checked */
  checkIntervalMs: number;
  /** the daemon's status page, put in every alert */
  statusUrl: string;
  /** a send whose delivery failed is tried again after baseMs, doubling per failure in a row up to maxMs (and never later than `repeat`) */
  retry?: { baseMs: number; maxMs: number };
}

export const DEFAULT_CHECK_INTERVAL_MS = 60_000;
/** A failed delivery is tried again at the check after 1 min, 2, 4, … then every hour (or every `repeat`, when shorter). */
export const DEFAULT_DELIVERY_RETRY = { baseMs: 60_000, maxMs: 3_600_000 };

/** Longer than any delivery's attempts and waits take (DEFAULT_DISPATCH): a delivery pending this long was abandoned. */
const ABANDONED_AFTER_MS = 30 * 60_000;

/**
 * Turns finished runs and the passing of time into alerts. Each condition (alert, connection, event) is alerted
 * once, reminded every `repeat` while it lasts, and followed by one `recovered` when it ends; each of these sends
 * is claimed on the condition's row in the store first, so daemons sharing a store send it once between them
 * (AlertClaims: while the store refuses writes, on a copy in memory, and sent all the same). A send counts once
 * delivered: one whose attempts all failed is claimed again at a later check (a backoff), not after `repeat`.
 * Runs only feed it: it listens to the engine's 'finished' event, and nothing it does can fail or slow a run.
 */
export class AlertEvaluator {
  private timer: NodeJS.Timeout | null = null;
  private events: EventEmitter | null = null;
  private readonly work = new Set<Promise<void>>();
  private readonly onFinished = (summary: RunSummary): void => this.track(this.evaluateRun(summary));
  private readonly onRefused = (event: RunRefused): void => this.track(this.evaluateRefused(event));
  readonly claims: AlertClaims;
  private abandonFailing = false;
  /** the project each connection fed when the alerts were read (they are read at start only: a reload keeps them) */
  private readonly projectsAtStart: ReadonlyMap<string, string>;
  /** alert and connection already warned of as moved to another project */
  private readonly warnedMoved = new Set<string>();

  constructor(
    private readonly alerts: readonly AlertConfig[],
    private readonly connections: readonly ConnectionConfig[],
    private readonly store: Pick<StoreRepositories, 'alerts' | 'runs' | 'connections'>,
    private readonly dispatcher: AlertDispatcher,
    private readonly logger: AlertLogger,
    private readonly options: EvaluatorOptions,
  ) {
    this.claims = new AlertClaims(store.alerts, logger);
    this.projectsAtStart = new Map(connections.map((c) => [c.id, projectNameOf(c)]));
  }

  /** The conditions active now, the store's with those it has not taken yet (GET /api/alerts, the status page). */
  active(): Promise<AlertStateRow[]> {
    return this.claims.active();
  }

  /** Listens to `events` ('finished') and checks the timed conditions now (downtime counts) and every interval. */
  start(events: EventEmitter): void {
    if (this.alerts.length === 0) return;
    this.events = events;
    events.on('finished', this.onFinished);
    events.on('refused', this.onRefused);
    this.track(this.check());
    this.timer = setInterval(() => this.track(this.check()), this.options.checkIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.events?.off('finished', this.onFinished);
    this.events?.off('refused', this.onRefused);
    this.events = null;
    await this.settled();
  }

  /** Resolves once every evaluation started so far is done (its messages are queued). */
  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  async evaluateRun(run: RunSummary): Promise<void> {
    for (const alert of this.watching(run.connectionId)) {
      const ended: AlertKey[] = [];
      for (const condition of runConditions(run, alert)) {
        if (!alert.events.includes(condition.event)) continue;
        const key = this.key(alert, run.connectionId, conditionKey(condition.event, run));
        if (condition.holds) {
          const claim = await this.claims.raise(key, { runId: run.runId, message: condition.message, project: this.projectOf(run.connectionId) }, durationMs(alert.repeat));
          if (claim) this.send(alert, [key], this.notice(condition.event, run.connectionId, run.runId, condition.message, runCounters(run), claim === 'reminder'), claim === 'reminder');
        } else if (await this.claims.end(key)) {
          ended.push(key);
        }
      }
      // the connection's health is its sync's: only a sync ends no_success_for
      if (run.status === 'succeeded' && run.direction !== 'outbound' && alert.events.includes('no_success_for')) {
        const key = this.key(alert, run.connectionId, 'no_success_for');
        if (await this.claims.end(key)) ended.push(key);
      }
      if (ended.length > 0 && alert.events.includes('recovered')) {
        const events = ended.map((key) => conditionOf(key.event).event);
        const message = `${run.connectionId}: recovered in ${runName(run)} (${run.status}): ${events.join(', ')} no longer ${ended.length > 1 ? 'hold' : 'holds'}`;
        this.send(alert, ended, this.notice('recovered', run.connectionId, run.runId, message, runCounters(run)));
      }
    }
  }

  /**
   * A run that could not even start (the store refused its row: a full disk) is a failed run of its direction that
   * no summary reports: run_failed holds (once, then reminded every `repeat`; a later successful run recovers it).
   */
  async evaluateRefused(event: RunRefused): Promise<void> {
    for (const alert of this.watching(event.connectionId)) {
      if (!alert.events.includes('run_failed')) continue;
      const key = this.key(alert, event.connectionId, conditionKey('run_failed', event));
      const what = event.direction === 'outbound' && event.flow ? `a ${OUTBOUND_FLOWS[event.flow].title} run` : 'a run';
      const error = event.error.length <= MAX_ERROR_CHARS ? event.error : `${event.error.slice(0, MAX_ERROR_CHARS)}…`;
      const message = `${event.connectionId}: ${what} (${event.trigger}) could not start: ${error}`;
      const claim = await this.claims.raise(key, { runId: null, message, project: this.projectOf(event.connectionId) }, durationMs(alert.repeat));
      if (claim) this.send(alert, [key], this.notice('run_failed', event.connectionId, null, message, null, claim === 'reminder'), claim === 'reminder');
    }
  }

  /**
   * no_success_for of scheduled connections, reminders of the conditions still active and sends whose delivery
   * failed (due again), deliveries a stopped daemon left pending. A store that refuses writes stops none of it.
   */
  async check(): Promise<void> {
    try {
      await this.store.alerts.abandonPending(new Date(Date.now() - ABANDONED_AFTER_MS).toISOString(), 'the daemon sending it stopped before it was delivered');
      this.abandonFailing = false;
    } catch (error) {
      if (!this.abandonFailing) this.logger.warn(`alerts: deliveries left pending could not be closed (will retry): ${(error as Error)?.message ?? error}`);
      this.abandonFailing = true;
    }
    await this.claims.flush();
    for (const alert of this.alerts) {
      if (!alert.events.includes('no_success_for')) continue;
      for (const connection of this.connections) {
        // a paused connection is meant not to run
        if (!connection.schedule || connection.paused || !this.watches(alert, connection.id)) continue;
        await this.checkNoSuccess(alert, connection.id);
      }
    }
    const byId = new Map(this.alerts.map((a) => [a.id, a]));
    for (const state of await this.claims.active()) {
      const alert = byId.get(state.alert_id);
      const { event } = conditionOf(state.event);
      // no_success_for reminds itself (its message says how long by now); a condition of an alert removed from the config stays quiet
      if (!alert || !alert.events.includes(event as AlertEvent)) continue;
      // nor one of a connection no longer configured or watched
      if (!this.connections.some((c) => c.id === state.connection_id) || !this.watches(alert, state.connection_id)) continue;
      // but a no_success_for whose delivery failed is tried again here, as it was (its own check may no longer hold)
      if (event === 'no_success_for' && !state.retry_at) continue;
      const key = this.key(alert, state.connection_id, state.event);
      if (await this.claims.remind(key, durationMs(alert.repeat))) {
        // a send that was never delivered goes as it was first meant (not a reminder of a message nobody got)
        const reminder = state.last_sent_at !== null;
        const notice = this.notice(event as AlertEvent, state.connection_id, state.run_id, state.message ?? state.event, null, reminder);
        this.send(alert, [key], notice, reminder);
      }
    }
    await this.retryRecoveries(byId);
  }

  /** Ended conditions whose `recovered` was not delivered: one message per alert and connection, again. */
  private async retryRecoveries(byId: Map<string, AlertConfig>): Promise<void> {
    const due = new Map<string, { alert: AlertConfig; connectionId: string; keys: AlertKey[] }>();
    for (const state of await this.claims.recoveriesDue()) {
      const alert = byId.get(state.alert_id);
      if (!alert || !alert.events.includes('recovered') || !this.watches(alert, state.connection_id)) continue;
      const key = this.key(alert, state.connection_id, state.event);
      if (!(await this.claims.claimRecovery(key))) continue;
      const group = `${alert.id}\n${state.connection_id}`;
      if (!due.has(group)) due.set(group, { alert, connectionId: state.connection_id, keys: [] });
      due.get(group)!.keys.push(key);
    }
    for (const { alert, connectionId, keys } of due.values()) {
      const events = keys.map((key) => conditionOf(key.event).event);
      const message = `${connectionId}: recovered: ${events.join(', ')} no longer ${keys.length > 1 ? 'hold' : 'holds'}`;
      this.send(alert, keys, this.notice('recovered', connectionId, null, message, null));
    }
  }

  /** Sends, then records how it went on each condition it is about: delivered, or failed (claimable again after a backoff). */
  private send(alert: AlertConfig, keys: AlertKey[], notice: AlertNotice, reminder = false): void {
    this.dispatcher.send(alert, notice, reminder, (result) => this.track(this.settle(alert, keys, result)));
  }

  private async settle(alert: AlertConfig, keys: AlertKey[], result: DeliveryResult): Promise<void> {
    const repeatMs = durationMs(alert.repeat);
    const retry = this.options.retry ?? DEFAULT_DELIVERY_RETRY;
    const backoff = (failures: number) => Math.min(retry.maxMs, repeatMs, retry.baseMs * 2 ** Math.min(failures - 1, 20));
    for (const key of keys) {
      if (result.status === 'sent') await this.claims.delivered(key);
      else {
        const row = await this.claims.failed(key, result.error ?? 'not delivered', backoff);
        if (row?.retry_at) this.logger.warn(`alert ${alert.id} (${alert.type}) ${conditionOf(key.event).event} for ${key.connectionId} not delivered: tried again after ${row.retry_at}`);
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
    const key = this.key(alert, connectionId, 'no_success_for');
    const claim = await this.claims.raise(key, { runId: rows[0]?.id ?? null, message, project: this.projectOf(connectionId) }, durationMs(alert.repeat));
    if (claim) this.send(alert, [key], this.notice('no_success_for', connectionId, rows[0]?.id ?? null, message, null, claim === 'reminder'), claim === 'reminder');
  }

  private watching(connectionId: string): AlertConfig[] {
    return this.alerts.filter((alert) => this.watches(alert, connectionId));
  }

  /**
   * The alert's `connections` name the connection, and its `projects` (when given) the connection's project. An alert
   * that names the connection by its id was written for it in the project it fed when the alerts were read: once a
   * reload moves the id to another project, that client's alert (its channel) gets none of the new project's runs.
   */
  watches(alert: AlertConfig, connectionId: string): boolean {
    const everyConnection = alert.connections.includes('*');
    if (!everyConnection && !alert.connections.some((id) => id.toLowerCase() === connectionId.toLowerCase())) return false;
    const connection = this.connections.find((c) => c.id === connectionId);
    const then = this.projectsAtStart.get(connectionId);
    if (!everyConnection && connection && then !== undefined && then !== projectNameOf(connection)) {
      this.warnMoved(alert, connectionId, then, projectNameOf(connection));
      return false;
    }
    if (!alert.projects) return true;
    return !!connection && alert.projects.includes(projectNameOf(connection));
  }

  private warnMoved(alert: AlertConfig, connectionId: string, from: string, to: string): void {
    if (this.warnedMoved.has(`${alert.id}\n${connectionId}`)) return;
    this.warnedMoved.add(`${alert.id}\n${connectionId}`);
    this.logger.warn(`alert ${alert.id} names ${connectionId}, which fed project ${from} when the alerts were read and feeds ${to} now: `
      + `the alert no longer watches it (a restart reads the alerts again, as written)`);
  }

  /** The project the connection feeds now, or null for one the config no longer holds. */
  private projectOf(connectionId: string): string | null {
    const connection = this.connections.find((c) => c.id === connectionId);
    return connection ? projectNameOf(connection) : null;
  }

  private key(alert: AlertConfig, connectionId: string, event: string): AlertKey {
    return { alertId: alert.id, connectionId, event };
  }

  private notice(event: AlertEvent, connection: string, runId: number | null, message: string, counters: Record<string, number> | null, reminder = false): AlertNotice {
    return {
      event, connection, run_id: runId, message: reminder ? `Reminder: ${message}` : message, counters,
      status_url: this.options.statusUrl, at: new Date().toISOString(), project: this.projectOf(connection),
    };
  }

  private track(job: Promise<void>): void {
    const tracked = job
      .catch((error) => this.logger.error(`alerts: ${(error as Error)?.message ?? error}`))
      .finally(() => this.work.delete(tracked));
    this.work.add(tracked);
  }
}
