export { SchedulerModule } from './scheduler.module';
export { SchedulerService } from './scheduler.service';
export { SchedulerOptions, SCHEDULER_OPTIONS, jobName } from './scheduler-options';
export { nextRunOf, isValidCron } from './next-run';
