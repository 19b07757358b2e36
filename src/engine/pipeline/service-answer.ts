import { SERVICE_COUNTER_KEYS, ServiceCounters } from '../engine-types';

export function zeroServiceCounters(): ServiceCounters {
  return Object.fromEntries(SERVICE_COUNTER_KEYS.map((k) => [k, 0])) as unknown as ServiceCounters;
}

/** Adds an add-orders answer's counters (numbers or numeric strings; anything else counts 0). */
export function addServiceCounters(total: ServiceCounters, answer: Partial<Record<keyof ServiceCounters, unknown>>): void {
  for (const key of SERVICE_COUNTER_KEYS) {
    const n = Number(answer[key] ?? 0);
    if (Number.isFinite(n)) total[key] += n;
  }
}

/**
 * The ids the service names in `comment` (e.g. 'Invalid date_create format in orders: r3, r7').
 * The wording is not specified, so only ids of this batch are taken, as whole tokens.
 */
export function idsInComment(comment: string | undefined | null, batchIds: readonly string[]): string[] {
  if (!comment) return [];
  const colon = comment.indexOf(':');
  const list = colon >= 0 ? comment.slice(colon + 1) : comment;
  const tokens = new Set(list.split(/[\s,;"'[\]()]+/).filter(Boolean));
  return batchIds.filter((id) => tokens.has(id));
}
