/**
 * The `cluster:` section: several daemons on one PostgreSQL store share runs, schedules and budgets through
 * Redis (BullMQ). Without `cluster.redis` nothing changes: one daemon, the in-process scheduler.
 */
import { IsOptional, ValidateBy } from 'class-validator';
import { DURATION, durationMs } from './alert-config';
import { Doc } from './config-doc';
import { EmptyAsAbsent, ToText } from './config-transforms';
import { UrlWithProtocol } from './config-validators';

export class ClusterConfig {
  @Doc('Redis of the cluster, e.g. redis://host:6379/0 (rediss:// for TLS); requires store.url (PostgreSQL). Absent = no cluster: one daemon and its in-process scheduler.', {
    type: 'redis(s) URL',
  })
  @IsOptional() @EmptyAsAbsent() @UrlWithProtocol(['redis', 'rediss'])
  redis?: string;

  @Doc("How long a daemon that stopped renewing its run's lock (killed, frozen) keeps it before another daemon takes the run over from its checkpoint.", {
    type: 'duration',
  })
  @ToText() @DurationFrom(5_000)
  stalled_after = '30s';
}

/** A duration (5s, 1m) of at least `minMs`. */
function DurationFrom(minMs: number): PropertyDecorator {
  const valid = (value: unknown) => typeof value === 'string' && DURATION.test(value) && durationMs(value) >= minMs;
  return ValidateBy({ name: 'durationFrom', validator: { validate: valid, defaultMessage: () => 'must be a duration such as 30s or 1m, at least 5s' } });
}
