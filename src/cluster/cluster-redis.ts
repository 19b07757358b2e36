import type { OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { createRedis } from '../redis/redis-connection';

/** This process's own Redis client in cluster mode (budgets, locks); `client` null without `cluster.redis`. */
export class ClusterRedis implements OnApplicationShutdown {
  readonly client: Redis | null;

  constructor(url: string | undefined) {
    this.client = url ? createRedis(url) : null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => this.client?.disconnect());
  }
}
