import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConnectionControlService } from '../application/connections/connection-control.service';
import { RunTriggerService } from '../application/runs/run-trigger.service';
import { ConnectionConfig, TrackerSyncConfig } from '../config/config.schema';
import { projectNameOf } from '../config/project-targets';
import { ConnectorRegistry } from '../connectors/connector-registry';
import { WebhookCallStore } from '../store/repositories/webhook-call.store';
import { CallRate } from './call-rate';
import { WebhookDebouncer } from './webhook-debouncer';
import { WebhookMetrics, WebhookOutcome } from './webhook-metrics';
import { debounceMs, verificationOf } from './webhook-rules';
import { verifyWebhookCall, WebhookCall } from './webhook-verifier';

/** A call as the controller hands it over. */
export interface IncomingHook extends Omit<WebhookCall, 'now'> {
  connectionId: string;
  tooLarge: boolean;
}

/** The HTTP status of the answer; its body is always empty. */
export type HookAnswer = 202 | 401 | 413 | 429;

/**
 * What a webhook call does. The answer is decided at once, before any work (verification is a few hashes):
 * 401 for a call that does not prove it comes from the connection's CRM (the reason only in the log and the
 * metric), 413 for a verified call whose body is over 1 MB, 429 beyond 10 calls a second, else 202. After the answer: a paused
 * connection records the call and runs nothing; any other re-arms its debounce, and when it fires the one
 * trigger path starts an incremental run (trigger `webhook`), or queues exactly one follow-up when a run is
 * going. The payload is never read for data: the run reads the CRM as a scheduled run does.
 */
@Injectable()
export class WebhookReceiver implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly rate = new CallRate(10, 1000);
  private readonly debouncer = new WebhookDebouncer((connectionId) => void this.fire(connectionId));
  /** the latest call not yet written, per connection: one write in flight per connection, however many calls */
  private readonly unwritten = new Map<string, { at: Date; outcome: WebhookOutcome; acceptedAt: Date | null; project: string }>();
  private readonly writing = new Set<string>();
  /** cluster mode: connections whose debounce could not reach Redis, re-armed once it is back (a call is never lost) */
  private readonly unqueued = new Map<string, number>();
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly registry: ConnectorRegistry,
    private readonly connections: ConnectionControlService,
    private readonly trigger: RunTriggerService,
    private readonly calls: WebhookCallStore,
    private readonly metrics: WebhookMetrics,
  ) {}

  onModuleInit(): void {
    for (const connection of this.config.connections.filter((c) => c.webhook)) {
      if (!verificationOf(connection, this.registry)) {
        this.logger.warn(`connection ${connection.id}: webhook calls are all refused: its connector does not say how its CRM signs them; set webhook.verify`);
      }
    }
  }

  onModuleDestroy(): void {
    this.stopped = true;
    this.debouncer.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  receive(hook: IncomingHook): HookAnswer {
    const connection = this.config.connections.find((c) => c.id === hook.connectionId);
    if (!connection?.webhook) {
      // no metric label for a name nobody configured (a scan would fill the registry)
      this.logger.warn(`webhook call refused: ${connection ? `connection ${connection.id} has no webhook settings` : 'no such connection'}`);
      if (connection) this.note(connection.id, 'refused');
      return 401;
    }
    // verified first, whatever its size: a 413 to a caller that proves nothing would tell it the connection exists.
    // An oversized body was not kept, so a signature over the body cannot verify: that call gets the 401 too.
    const refusal = this.refusal(connection, hook);
    if (refusal) {
      const why = hook.tooLarge ? `its body is over 1 MB and it was not verified (${refusal})` : refusal;
      this.logger.warn(`connection ${connection.id}: webhook call refused: ${why}`);
      this.note(connection.id, 'refused');
      return 401;
    }
    if (hook.tooLarge) {
      this.logger.warn(`connection ${connection.id}: webhook call refused: its body is over 1 MB`);
      this.note(connection.id, 'too_large');
      return 413;
    }
    if (!this.rate.take(connection.id)) {
      this.note(connection.id, 'rate_limited');
      return 429;
    }
    setImmediate(() => void this.accept(connection));
    return 202;
  }

  /** Connections whose debounce is running (a run is due). */
  waiting(): string[] {
    return this.debouncer.waiting();
  }

  private refusal(connection: ConnectionConfig, hook: IncomingHook): string | null {
    const rule = verificationOf(connection, this.registry);
    if (!rule) return 'the connector does not say how its CRM signs calls and webhook.verify is not set';
    const verdict = verifyWebhookCall(rule, connection.webhook!.secret, { ...hook, now: Date.now() });
    return verdict.ok ? null : verdict.reason;
  }

  private async accept(connection: ConnectionConfig): Promise<void> {
    if (this.stopped) return;
    try {
      if (await this.isPaused(connection.id)) {
        this.note(connection.id, 'paused');
        return;
      }
      this.note(connection.id, 'accepted');
      if (this.trigger.inCluster) await this.debounceInQueue(connection.id, debounceMs(connection));
      else this.debouncer.call(connection.id, debounceMs(connection));
    } catch (error) {
      this.logger.error(`connection ${connection.id}: a webhook call could not be handled: ${message(error)}`);
    }
  }

  /** Cluster mode: the debounce is the run queue's; while Redis is away the call waits here and is tried every second. */
  private async debounceInQueue(connectionId: string, ms: number): Promise<void> {
    try {
      await this.trigger.debounceWebhook(connectionId, ms);
      this.unqueued.delete(connectionId);
    } catch (error) {
      if (!this.unqueued.has(connectionId)) this.logger.warn(`connection ${connectionId}: the webhook call waits for the run queue: ${message(error)}`);
      this.unqueued.set(connectionId, ms);
      if (!this.retryTimer && !this.stopped) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          for (const [id, debounce] of [...this.unqueued]) void this.debounceInQueue(id, debounce);
        }, 1_000);
        this.retryTimer.unref();
      }
    }
  }

  private async fire(connectionId: string): Promise<void> {
    if (this.stopped) return;
    try {
      if (await this.isPaused(connectionId)) return; // paused while the debounce ran
      const outcome = await this.trigger.trigger({
        connectionId, trigger: 'webhook', request: { kind: 'sync', mode: 'incremental' }, whenBusy: 'follow_up',
      });
      if (outcome.status === 'started') this.logger.log(`connection ${connectionId}: run ${outcome.runId} started by a webhook`);
    } catch (error) {
      this.logger.error(`connection ${connectionId}: the webhook's run could not start: ${message(error)}`);
    }
  }

  private isPaused(connectionId: string): Promise<boolean> {
    return this.connections.isPaused(connectionId);
  }

  /** Counts the call and records it as the connection's last (written in the background, coalesced). */
  private note(connectionId: string, outcome: WebhookOutcome): void {
    this.metrics.count(connectionId, outcome);
    const at = new Date();
    const before = this.unwritten.get(connectionId);
    // the call is the project's the connection feeds now (GET /api/webhooks shows another project none of it)
    const project = projectNameOf(this.config.connections.find((c) => c.id === connectionId) ?? {});
    this.unwritten.set(connectionId, { at, outcome, acceptedAt: outcome === 'accepted' ? at : (before?.acceptedAt ?? null), project });
    if (!this.writing.has(connectionId)) void this.flush(connectionId);
  }

  private async flush(connectionId: string): Promise<void> {
    this.writing.add(connectionId);
    try {
      for (let call = this.unwritten.get(connectionId); call && !this.stopped; call = this.unwritten.get(connectionId)) {
        this.unwritten.delete(connectionId);
        await this.calls.record({ connectionId, ...call }).catch((error) => {
          this.logger.warn(`connection ${connectionId}: the last webhook call could not be recorded: ${message(error)}`);
        });
      }
    } finally {
      this.writing.delete(connectionId);
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
