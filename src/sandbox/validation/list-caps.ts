import { badRequest } from '../errors/sandbox-error';

/**
 * The largest `limit` each list takes. The specification states one (visit list: at most 10,000 records per
 * response) and leaves the others "not shown"; these are ours, stated in the README and the OpenAPI document.
 * Together with the bounded reads of the lists (a page is assembled from chunks, never the whole table), they keep
 * the biggest allowed request of the embedded sandbox within the daemon's heap.
 */
export const LIST_CAPS = {
  /** the Limits table */
  visits: 10_000,
  /** the daemon's write-back pages the order list with `extend: ["visit"]` at 10,000 (engine/write-back/order-pages.ts) */
  orders: 10_000,
  clients: 10_000,
  /** tracked e-mails, leads, speech calls, e-mail campaigns and their recipients */
  sections: 1_000,
} as const;

export type CappedList = keyof typeof LIST_CAPS;

/**
 * `limit` above the list's cap is refused (400, `request_data_validation_error`, `details: {field, max}`) rather
 * than cut: a client asking for more than it gets would page wrongly.
 */
export function checkLimit(limit: number | null | undefined, list: CappedList, path = 'limit'): void {
  const max = LIST_CAPS[list];
  if (limit !== undefined && limit !== null && limit > max) {
    throw badRequest(path, `${path}: at most ${max} records per request (got ${limit}); page with offset`, { max });
  }
}

/** Rows read at a time by a list that filters in code: the memory a request holds besides its page. */
export const SCAN_CHUNK = 2_000;

/** What a scan has found so far: `total` is final once the scan's chunks are exhausted. */
export interface ScanCount {
  total: number;
}

/**
 * The records that match, page by page: reads `fetch(after)` chunk by chunk (each chunk after the last record of the
 * previous one) and yields, per chunk, its matches that fall in [offset, offset + limit); it goes on counting to the
 * end so that `count.total` is every match. Only one chunk and its share of the page are held at once.
 */
export async function* scanMatches<T, K>(
  fetch: (after: K | null) => Promise<T[]>,
  keyOf: (record: T) => K,
  matches: (record: T) => boolean,
  offset: number,
  limit: number,
  count: ScanCount,
): AsyncGenerator<T[]> {
  let after: K | null = null;
  for (;;) {
    const chunk = await fetch(after);
    const inPage: T[] = [];
    for (const record of chunk) {
      if (!matches(record)) continue;
      if (count.total >= offset && count.total < offset + limit) inPage.push(record);
      count.total += 1;
    }
    if (inPage.length) yield inPage;
    if (chunk.length < SCAN_CHUNK) return;
    after = keyOf(chunk[chunk.length - 1]);
  }
}

/** One page of the records that match, and how many match in all (scanMatches, collected). */
export async function scanPage<T, K>(
  fetch: (after: K | null) => Promise<T[]>,
  keyOf: (record: T) => K,
  matches: (record: T) => boolean,
  offset: number,
  limit: number,
): Promise<{ page: T[]; total: number }> {
  const count: ScanCount = { total: 0 };
  const page: T[] = [];
  for await (const records of scanMatches(fetch, keyOf, matches, offset, limit, count)) page.push(...records);
  return { page, total: count.total };
}
