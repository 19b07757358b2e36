import { CronTime } from 'cron';

/**
 * When a schedule would fire next, computed from the expression alone: used where no timer
 * runs (the CLI's `status`) so it shows what the daemon would do. Null when paused, unscheduled or invalid.
 */
export function nextRunOf(schedule: string | null | undefined, paused: boolean, timeZone?: string): Date | null {
  if (!schedule || paused) return null;
  try {
    return new CronTime(schedule, timeZone ?? undefined).sendAt().toJSDate();
  } catch {
    return null;
  }
}

export function isValidCron(expression: string): boolean {
  return CronTime.validateCronExpression(expression).valid;
}
