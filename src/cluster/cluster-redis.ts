import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { createRedis } from '../redis/redis-connection';

/** This process's own Redis client in cluster mode (budgets, locks); `client` null without `cluster.redis`. */
export class ClusterRedis implements OnApplicationShutdown {
  readonly client: Redis | null;
  private readonly logger = new Logger('ClusterRedis');
  /** the outage being reported (one line per outage, not one per reconnect attempt) */
  private down = false;

  constructor(url: string | undefined) {
    this.client = url ? createRedis(url) : null;
    // without a listener ioredis prints every failed reconnect (several a second) as an unhandled error
    this.client?.on('error', (error: Error) => {
      if (this.down) return;
      this.down = true;
      this.logger.warn(`Redis of the cluster (cluster.redis) is unreachable (will retry): ${error.message}`);
    });
    this.client?.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      this.logger.log('Redis of the cluster (cluster.redis) answers again');
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => this.client?.disconnect());
  }
}
