import { CronExpressionParser } from 'cron-parser';

/**
 * The scheduled tick a 'schedule' run belongs to: the latest fire time of the cron expression at or
 * just before now. Every daemon computes the same slot for the same tick, so the store can let one
 * of them claim it (lease.last_slot). The small margin covers a timer firing at the exact instant.
 */
const FIRE_MARGIN_MS = 250;

export function scheduledSlot(schedule: string | null | undefined, now = new Date()): Date | null {
  if (!schedule) return null;
  try {
    return CronExpressionParser.parse(schedule, { currentDate: new Date(now.getTime() + FIRE_MARGIN_MS) }).prev().toDate();
  } catch {
    return null; // the scheduler reports invalid schedules; such a run simply claims no slot
  }
}
