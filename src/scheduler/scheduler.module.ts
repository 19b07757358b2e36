import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { RunTriggerModule } from '../application/runs/run-trigger.module';
import { SCHEDULE_CONTROL } from '../application/connections/schedule-control';
import { EngineModule } from '../engine/engine.module';
import { CronJobsRepository } from './cron-jobs.repository';
import { SchedulerService } from './scheduler.service';
import { StoreReconciler } from './store-reconciler';
import { TickLedger } from './tick-ledger';
import { RunWorker } from './run-worker';

/**
 * Cron jobs per connection. Runs timers unless a global provider of SCHEDULER_OPTIONS says
 * `{ runJobs: false }` (the CLI does: it must never start background runs).
 * Needs TrackerSyncConfig, the store and what EngineModule expects from the app.
 * Global: it is the application layer's ScheduleControl (`SCHEDULE_CONTROL`), which the application gets
 * without importing the scheduler (the scheduler imports the application's trigger path).
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot(), EngineModule, RunTriggerModule],
  providers: [StoreReconciler, CronJobsRepository, TickLedger, SchedulerService, RunWorker, { provide: SCHEDULE_CONTROL, useExisting: SchedulerService }],
  exports: [SchedulerService, SCHEDULE_CONTROL, RunWorker],
})
export class SchedulerModule {}
