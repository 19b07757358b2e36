import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';

/**
 * The only place that touches cron timers (immich style: side effects behind a repository),
 * so the scheduling rules in SchedulerService stay plain logic over named jobs.
 */
@Injectable()
export class CronJobsRepository {
  constructor(private readonly registry: SchedulerRegistry) {}

  /** Registers and starts a job; an existing job of that name is replaced. */
  add(name: string, expression: string, onTick: () => Promise<void>, timeZone?: string): void {
    this.remove(name);
    const job = CronJob.from({
      cronTime: expression,
      onTick,
      start: false,
      timeZone: timeZone ?? undefined,
      // a tick that is still starting its run must not overlap the next one
      waitForCompletion: true,
    });
    this.registry.addCronJob(name, job);
    job.start();
  }

  remove(name: string): void {
    if (this.registry.doesExist('cron', name)) this.registry.deleteCronJob(name);
  }

  has(name: string): boolean {
    return this.registry.doesExist('cron', name);
  }

  nextDate(name: string): Date | null {
    if (!this.has(name)) return null;
    return this.registry.getCronJob(name).nextDate().toJSDate();
  }

  /** Stops every job this repository may have added (names share the prefix). */
  removeAll(prefix: string): void {
    for (const name of this.registry.getCronJobs().keys()) {
      if (name.startsWith(prefix)) this.registry.deleteCronJob(name);
    }
  }
}
