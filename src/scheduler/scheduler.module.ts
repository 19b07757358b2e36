import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { RunTriggerModule } from '../application/runs/run-trigger.module';
import { EngineModule } from '../engine/engine.module';
import { CronJobsRepository } from './cron-jobs.repository';
import { SchedulerService } from './scheduler.service';
import { StoreReconciler } from './store-reconciler';
import { TickLedger } from './tick-ledger';

/**
 * Cron jobs per connection. Runs timers unless a global provider of SCHEDULER_OPTIONS says
 * `{ runJobs: false }` (the CLI does: it must never start background runs).
 * Needs TrackerSyncConfig, the store and what EngineModule expects from the app.
 */
@Module({
  imports: [ScheduleModule.forRoot(), EngineModule, RunTriggerModule],
  providers: [StoreReconciler, CronJobsRepository, TickLedger, SchedulerService],
  exports: [SchedulerService],
})
export class SchedulerModule {}
