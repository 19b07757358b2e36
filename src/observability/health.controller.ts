import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RedisHealthIndicator } from './redis-health.indicator';

/**
 * Open to everyone (no token): load balancers and `curl` probe it. The store down: 503. In cluster mode, Redis
 * down while the store answers: 200 with status `degraded` naming Redis, for the daemon still answers its admin
 * API and finishes the runs it has (docs/cluster.md).
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  async check() {
    const checks = [() => this.db.pingCheck('store')];
    if (this.redis.enabled) checks.push(() => this.redis.check('redis'));
    try {
      return await this.health.check(checks);
    } catch (error) {
      const result = error instanceof ServiceUnavailableException ? (error.getResponse() as HealthCheckResult) : null;
      const down = Object.keys(result?.error ?? {});
      if (result && down.length === 1 && down[0] === 'redis') return { ...result, status: 'degraded' };
      throw error;
    }
  }
}
