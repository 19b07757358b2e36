import { STREAM_ORDER } from '../../connectors/canonical';
import { InvalidRunOptionsError } from '../engine-errors';
import { StartRunOptions } from '../engine-types';

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' is UTC midnight; anything else must be an ISO instant with its offset. */
export function parseSince(value: string): Date {
  const m = PLAIN_DATE.exec(value.trim());
  const date = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : new Date(value);
  const calendarOk = !m || (date.getUTCMonth() === +m[2] - 1 && date.getUTCDate() === +m[3]);
  if (Number.isNaN(date.getTime()) || !calendarOk || (!m && !/\d{4}-\d{2}-\d{2}T/.test(value))) {
    throw new InvalidRunOptionsError(`since: ${JSON.stringify(value)} is not a date YYYY-MM-DD or an ISO instant`);
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
