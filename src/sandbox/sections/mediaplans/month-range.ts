import { badRequest } from '../../errors/sandbox-error';
import { FieldReader } from '../common/field-reader';
import { formatPlainDate, lastDayOfMonth, parsePlainDate } from '../common/service-time';

/**
 * Media plan dates (Limits: "first and last day of one month only"): `date_from` must be the
 * first day of a month and `date_to` the last day of that same month; any other pair is a 400.
 */
export function readMonthRange(reader: FieldReader): { date_from: string; date_to: string } {
  const dateFrom = reader.requiredPlainDate('date_from');
  const dateTo = reader.requiredPlainDate('date_to');
  const from = parsePlainDate(dateFrom) as Date;
  if (from.getUTCDate() !== 1) {
    throw badRequest(reader.path('date_from'), `${reader.path('date_from')}: must be the first day of a month, got ${dateFrom}`);
  }
  const expectedTo = formatPlainDate(lastDayOfMonth(from));
  if (dateTo !== expectedTo) {
    throw badRequest(reader.path('date_to'), `${reader.path('date_to')}: must be ${expectedTo}, the last day of the month of date_from, got ${dateTo}`);
  }
  return { date_from: dateFrom, date_to: dateTo };
}
