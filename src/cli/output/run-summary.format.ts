import type { StreamName } from '../../connectors/canonical';
import { STREAM_ORDER } from '../../connectors/canonical';
import { SERVICE_COUNTER_KEYS } from '../../runs/run-vocabulary';
import type { RejectedRecordRow } from '../../store';

/** The per-stream numbers of a run, as the engine and the store keep them. */
export interface StreamNumbers {
  read: number;
  unchanged: number;
  sent: number;
  rejected: number;
  sent_without_visit?: number;
  uncertain?: number;
  skipped_fields_by_invalid_format?: number;
  deferred_future?: number;
}

export type ServiceNumbers = Record<string, number>;

const isSkip = (key: string) => key.startsWith('skipped_');

/** The order of the service's counters on a summary line: the skips first, they explain what "sent" became. */
export const SERVICE_COUNTER_ORDER = [...SERVICE_COUNTER_KEYS.filter(isSkip), ...SERVICE_COUNTER_KEYS.filter((key) => !isSkip(key))];

/** At most this many rejected records are listed after a run; the rest are counted. */
export const REJECTED_SHOWN = 20;

const SEP = ' · ';

/**
 * One line per stream, e.g. `deals: read 20000 · sent 120 · unchanged 19880 · rejected 2 · skipped_by_status 0 · …`.
 * The service's counters are summed over the whole run, so they go on the line of the stream that produced them
 * (deals: add-orders) and on no other: a clients line with add-orders' zeros read as if clients had been skipped.
 * Only counters that are not all zero, in a run without a deals line (none sends add-orders), go on its last line.
 */
export function streamSummaryLines(streams: Partial<Record<string, StreamNumbers>>, counters: ServiceNumbers): string[] {
  const names = orderedStreams(Object.keys(streams));
  const orphaned = Object.values(counters).some((n) => n);
  const counterHolder = names.includes('deals') ? 'deals' : orphaned ? names[names.length - 1] : null;
  return names.map((name) => {
    const s = streams[name]!;
    const parts = [`read ${s.read}`, `sent ${s.sent}`, `unchanged ${s.unchanged}`, `rejected ${s.rejected}`];
    // fields the connector left out of this stream's records: beside the service's own counter of that name (summed
    // with it on the line that carries the service's counters)
    const leftOut = s.skipped_fields_by_invalid_format ?? 0;
    const serviceCounter = (key: string) => (counters[key] ?? 0) + (key === 'skipped_fields_by_invalid_format' ? leftOut : 0);
    if (name === counterHolder) for (const key of SERVICE_COUNTER_ORDER) parts.push(`${key} ${serviceCounter(key)}`);
    else if (leftOut > 0) parts.push(`skipped_fields_by_invalid_format ${leftOut}`);
    if (name === 'deals' || (s.sent_without_visit ?? 0) > 0) parts.push(`sent_without_visit ${s.sent_without_visit ?? 0}`);
    if ((s.uncertain ?? 0) > 0) parts.push(`uncertain ${s.uncertain}`);
    if ((s.deferred_future ?? 0) > 0) parts.push(`deferred_future ${s.deferred_future}`);
    return `${name}: ${parts.join(SEP)}`;
  });
}

/** `rejected deals r3 (deals.csv row 4) created_at: "31.02.2025" is not a valid date` */
export function rejectedLine(record: Pick<RejectedRecordRow, 'stream' | 'external_id' | 'ref' | 'field' | 'reason'>): string {
  const id = record.external_id || '(no id)';
  const ref = record.ref ? ` (${record.ref})` : '';
  const field = record.field ? `${record.field}: ` : '';
  return `rejected ${record.stream} ${id}${ref} ${field}${record.reason}`;
}

/** The first REJECTED_SHOWN rejected lines, then `… and N more`. */
export function rejectedLines(shown: readonly Parameters<typeof rejectedLine>[0][], total: number): string[] {
  const lines = shown.slice(0, REJECTED_SHOWN).map(rejectedLine);
  const rest = total - lines.length;
  if (rest > 0) lines.push(`… and ${rest} more`);
  return lines;
}

function orderedStreams(names: string[]): string[] {
  const rank = (name: string) => {
    const index = STREAM_ORDER.indexOf(name as StreamName);
    return index < 0 ? STREAM_ORDER.length : index;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
