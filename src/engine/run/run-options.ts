import { STREAM_ORDER } from '../../connectors/canonical';
import { InvalidRunOptionsError } from '../engine-errors';
import { StartRunOptions } from '../engine-types';

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** an ISO date-time that names its offset (`Z`, `+05:00`, `+0500`) */
const HAS_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/i;
/** The service's own day (it reads a time without an offset as UTC+03:00). */
const SERVICE_OFFSET = '+03:00';

/**
 * A run's `since`: 'YYYY-MM-DD' is the start of that day as the service counts days (00:00 UTC+03:00), so a run "since
 * the 12th" reads the Moscow night of the 12th too; a date-time without an offset is the service's time as well
 * (never this machine's zone). An ISO instant with its offset is taken as it is.
 */
export function parseSince(value: string): Date {
  const text = value.trim();
  const m = PLAIN_DATE.exec(text);
  const isoTime = !m && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text);
  const date = m ? new Date(`${text}T00:00:00${SERVICE_OFFSET}`) : isoTime ? new Date(HAS_OFFSET.test(text) ? text : `${text}${SERVICE_OFFSET}`) : new Date(NaN);
  const calendarOk = !m || new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDate() === +m[3];
  if (Number.isNaN(date.getTime()) || !calendarOk) {
    throw new InvalidRunOptionsError(`since: ${JSON.stringify(value)} is not a date YYYY-MM-DD or an ISO date-time (without an offset: UTC+03:00, the service's time)`);
  }
  return date;
}

export function validateStartOptions(options: StartRunOptions): Date | null {
  if (!['incremental', 'full', 'since'].includes(options.mode)) {
    const retry = options.mode === 'retry' ? ' (a retry run re-sends the rejected records of a run: SyncService.retryRejected)' : '';
    throw new InvalidRunOptionsError(`mode: ${JSON.stringify(options.mode)} is not one of incremental, full, since${retry}`);
  }
  for (const s of options.onlyStreams ?? []) {
    if (!STREAM_ORDER.includes(s)) throw new InvalidRunOptionsError(`onlyStreams: ${JSON.stringify(s)} is not a stream (${STREAM_ORDER.join(', ')})`);
  }
  if (options.mode !== 'since') return null;
  if (!options.since) throw new InvalidRunOptionsError('since: required with mode "since"');
  return parseSince(options.since);
}
