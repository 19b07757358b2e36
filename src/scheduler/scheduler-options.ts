/** How the scheduler behaves in this process. */
export interface SchedulerOptions {
  /**
   * true in the daemon: cron timers and `run_on_start` runs. false in the CLI, which must never start
   * background runs; nextRun() then still answers from the schedule expressions.
   */
  runJobs: boolean;
}

export const SCHEDULER_OPTIONS = Symbol('SCHEDULER_OPTIONS');

/** Job name of a connection in @nestjs/schedule's SchedulerRegistry. */
export const JOB_PREFIX = 'connection:';
export const jobName = (connectionId: string): string => `${JOB_PREFIX}${connectionId}`;
/** Job name of a connection's outbound flow with a schedule of its own (`write_back.schedule`: `connection:<id>:write-back`). */
export const flowJobName = (connectionId: string, flow: string): string => `${JOB_PREFIX}${connectionId}:${flow.replace(/_/g, '-')}`;
export const writeBackJobName = (connectionId: string): string => flowJobName(connectionId, 'write_back');
