import { Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type IORedis from 'ioredis';
import { TrackerSyncConfig } from '../config/config.schema';
import { createRedis } from '../redis/redis-connection';
import { MetricsService } from './metrics.service';

/** A ping that takes longer than this is a Redis that does not answer. */
const PING_TIMEOUT_MS = 1_000;

/**
 * Cluster mode: whether the cluster's Redis (`cluster.redis`) answers a PING. Its own client, whose commands are
 * not retried, and a ping that waits at most PING_TIMEOUT_MS, so /health answers at once while Redis is away.
 */
@Injectable()
export class RedisHealthIndicator implements OnModuleDestroy {
  private client?: IORedis;
  /** the connection's last error while Redis is away (ECONNREFUSED, a DNS failure, NOAUTH), null once it answers */
  private lastError: string | null = null;

  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly indicator: HealthIndicatorService,
    @Optional() metrics?: MetricsService,
  ) {
    // /metrics says whether Redis answers (tracker_sync_redis_up), not only /health
    if (this.enabled) metrics?.watchRedis(() => this.ping().then(() => true, () => false));
  }

  get enabled(): boolean {
    return !!this.config.cluster?.redis;
  }

  async check(key: string) {
    const session = this.indicator.check(key);
    try {
      await this.ping();
      return session.up();
    } catch (error) {
      return session.down({ message: `Redis of the cluster (cluster.redis) is unreachable: ${this.lastError ?? (error as Error).message}` });
    }
  }

  /** Resolves once Redis answers a PING; rejects after PING_TIMEOUT_MS. */
  private async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS)));
    await Promise.race([this.redis().ping(), timeout]).finally(() => clearTimeout(timer));
  }

  async onModuleDestroy(): Promise<void> {
    this.client?.disconnect();
  }

  private redis(): IORedis {
    if (!this.client) {
      this.client = createRedis(this.config.cluster.redis!, { maxRetriesPerRequest: 0, connectTimeout: PING_TIMEOUT_MS });
      // a drop: the next probe answers it, naming the connection's error rather than ioredis's "max retries"
      this.client.on('error', (error: Error) => (this.lastError = error.message));
      this.client.on('ready', () => (this.lastError = null));
    }
    return this.client;
  }
}
