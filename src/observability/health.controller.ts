import { Controller, Get, Optional, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { SerialWriter } from '../store/serial-writer';
import { RedisHealthIndicator } from './redis-health.indicator';

/**
 * Open to everyone (no token): load balancers and `curl` probe it. The store down: 503. Down is also a store that
 * answers but refuses writes (a full disk: SQLITE_FULL; an I/O error; a lock held too long): its last write failed
 * within the last two minutes and none succeeded since (SerialWriter.writeFailure), for then no run can even be
 * recorded. In cluster mode, Redis down while the store answers: 200 with status `degraded` naming Redis, for the
 * daemon still answers its admin API and finishes the runs it has (docs/cluster.md).
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly indicator: HealthIndicatorService,
    @Optional() private readonly writer?: SerialWriter,
  ) {}

  @Get()
  @HealthCheck()
  async check() {
    const checks = [() => this.store('store')];
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

  /** The store answers a ping, and takes writes. */
  private async store(key: string) {
    const ping = await this.db.pingCheck(key);
    if (ping[key]?.status !== 'up') return ping;
    const failure = this.writer?.writeFailure();
    if (!failure) return ping;
    return this.indicator.check(key).down({
      message: `the store cannot be written: ${failure.error} (last refused write at ${failure.at}); no run can be recorded`,
      write_error: failure.error,
      last_refused_at: failure.at,
    });
  }
}
