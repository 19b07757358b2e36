import { Module } from '@nestjs/common';
import { RunQueue } from '../../cluster/run-queue';
import { durationMs } from '../../config/alert-config';
import { TrackerSyncConfig } from '../../config/config.schema';
import { EngineModule } from '../../engine/engine.module';
import { RunTriggerService } from './run-trigger.service';

/** Cluster mode's run queue (`cluster.redis`), else null: runs start in this process as they always did. */
const RUN_QUEUE_PROVIDER = {
  provide: RunQueue,
  inject: [TrackerSyncConfig],
  useFactory: (config: TrackerSyncConfig): RunQueue | null =>
    config.cluster?.redis ? new RunQueue(config.cluster.redis, durationMs(config.cluster.stalled_after)) : null,
};

/**
 * The one trigger path, in a module of its own: the scheduler (and later the webhooks) import it without the
 * rest of the application layer, which needs the scheduler (its ScheduleControl, provided globally).
 */
@Module({ imports: [EngineModule], providers: [RUN_QUEUE_PROVIDER, RunTriggerService], exports: [RunTriggerService, RunQueue] })
export class RunTriggerModule {}
