import { CronExpressionParser } from 'cron-parser';
import { validateCronExpression } from 'cron';

/**
 * Why a schedule is not usable, or undefined when it is.
 * Checked twice: with cron-parser (rejects impossible dates such as "0 0 31 2 *", which would
 * never fire) and with `cron`, the library @nestjs/schedule runs jobs with (rejects the L, W, #
 * and ? extensions it cannot run). Both fill missing fields silently, so the count is checked first.
 */
export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) {
    return `has ${fields} field${fields === 1 ? '' : 's'}; expected 5 (minute hour day month weekday) or 6 (seconds first)`;
  }
  try {
    CronExpressionParser.parse(expression);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (!validateCronExpression(expression).valid) {
    return 'uses syntax the scheduler does not support (L, W, # and ? are not)';
  }
  return undefined;
}
