import { CronTime, validateCronExpression } from 'cron';

/**
 * Schedules, read by `cron`: the library @nestjs/schedule runs the jobs with, so a schedule accepted here is
 * one the scheduler runs, and its times are the jobs' times (UTC: the jobs are started without a zone).
 */

const FIELDS = 'minute 0-59, hour 0-23, day of month 1-31, month 1-12, weekday 0-7; with 6 fields, second 0-59 first';
/** Quartz extensions `cron` cannot run: L (last), W (nearest weekday), # (nth weekday), ? (no value). */
const QUARTZ_FIELD = /[#?]|^L|\dL|\dW/i;
const FIRE_MARGIN_MS = 250;
const EIGHT_YEARS_MS = 8 * 366 * 86_400_000;

/** Why a schedule is not usable, or undefined when it is. `cron` fills missing fields silently: the count is checked first. */
export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    return `has ${fields.length} field${fields.length === 1 ? '' : 's'}; expected 5 (minute hour day month weekday) or 6 (seconds first)`;
  }
  if (fields.some((field) => QUARTZ_FIELD.test(field))) return 'uses syntax the scheduler does not support (L, W, # and ? are not)';
  const { valid, error } = validateCronExpression(expression);
  if (!valid) return `${error?.message ?? 'not readable'} (${FIELDS})`;
  try {
    new CronTime(expression).sendAt();
  } catch {
    return 'never fires: no month of the schedule has its day of month (e.g. 31 in February)';
  }
  return undefined;
}

/**
 * The scheduled tick a 'schedule' run belongs to: the latest fire time of the schedule at or just before now.
 * Every daemon computes the same slot for the same tick, so the store can let one of them claim it
 * (lease.last_slot). The small margin covers a timer firing at the exact instant. Null when the schedule is
 * absent or invalid (the scheduler reports those; such a run claims no slot).
 */
export function scheduledSlot(schedule: string | null | undefined, now = new Date()): Date | null {
  if (!schedule) return null;
  try {
    return latestFireTime(new CronTime(schedule), now.getTime() + FIRE_MARGIN_MS);
  } catch {
    return null;
  }
}

/**
 * `cron` only looks forward (`getNextDateFrom`: the first fire time after an instant), so the latest fire time
 * at or before `at` is found by bisection: look back until a fire time lies in between, then narrow that
 * start down to the second. Fire times fall on whole seconds, so the last start keeps exactly one ahead.
 */
function latestFireTime(cron: CronTime, at: number): Date | null {
  const next = (ms: number) => cron.getNextDateFrom(new Date(ms)).toMillis();
  let span = 60_000;
  while (next(at - span) > at) {
    span *= 2;
    if (span > EIGHT_YEARS_MS) return null;
  }
  let before = at - span; // next(before) <= at
  let after = at; // next(after) > at
  while (after - before > 1000) {
    const middle = before + Math.floor((after - before) / 2);
    if (next(middle) <= at) before = middle;
    else after = middle;
  }
  return new Date(next(before));
}
