import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RunSummary, SyncService } from '../engine';
import { MetricsService } from './metrics.service';

/**
 * Feeds every finished run to the metrics. The engine only emits events, so it stays unaware of
 * Prometheus; whoever starts the run (scheduler, admin API, CLI) is counted the same way.
 */
@Injectable()
export class MetricsSubscriber implements OnModuleInit, OnModuleDestroy {
  private readonly onFinished = (summary: RunSummary): void => this.metrics.observeRun(summary);

  constructor(
    private readonly sync: SyncService,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.sync.events.on('finished', this.onFinished);
  }

  onModuleDestroy(): void {
    this.sync.events.off('finished', this.onFinished);
  }
}
