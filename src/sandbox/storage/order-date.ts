import { readOrderDate } from '../../tracker/add-orders-rules';
import { serviceTimestamp } from './timestamps';

/**
 * Reads add-orders' `date_create` by the rule the client checks too (`readOrderDate`): UNIX time,
 * `YYYY-MM-DD HH:MM:SS` (UTC+03:00), or the same with an offset. Returns the instant as the
 * service's UTC timestamp, or null when the value is not one of these forms or not a real date.
 */
export function parseDateCreate(value: unknown): string | null {
  const instant = readOrderDate(value);
  return instant === null ? null : serviceTimestamp(instant);
}

/**
 * A date bound in a list filter, in any form a client may send (service timestamp, ISO with
 * milliseconds, plain date, UNIX time), as a UTC service timestamp comparable as text.
 * Unparseable values are kept as given.
 */
export function normalizeDateBound(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const text = String(value).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00:00+0000`;
  const withOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}+0000`;
  return parseDateCreate(withOffset) ?? parseDateCreate(text) ?? value;
}
