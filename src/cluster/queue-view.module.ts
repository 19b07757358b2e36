import { DynamicModule, Global, Module } from '@nestjs/common';
import { MetricsService } from '../observability/metrics.service';
import { RUNS_QUEUE, RunsQueueView } from './runs-queue-view';

/**
 * Cluster mode's visibility (the daemon, not the CLI): the runs queue as /metrics, GET /api/cluster and the
 * dashboard at /admin/queues (mounted by src/daemon.ts) show it.
 */
@Global()
@Module({})
export class QueueViewModule {
  static forRoot(redisUrl: string): DynamicModule {
    return {
      module: QueueViewModule,
      providers: [
        {
          provide: RunsQueueView,
          inject: [MetricsService],
          useFactory: (metrics: MetricsService) => {
            const view = new RunsQueueView(redisUrl, () => metrics.observeStalled(RUNS_QUEUE));
            metrics.watchQueue(RUNS_QUEUE, () => view.counts());
            return view;
          },
        },
      ],
      exports: [RunsQueueView],
    };
  }
}
