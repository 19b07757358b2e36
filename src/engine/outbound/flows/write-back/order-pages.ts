import { formatTrackerDate } from '../../../../tracker/tracker-date';
import type { TrackerClient } from '../../../../tracker/tracker-client';
import type { Order, OrderListResponse } from '../../../../tracker/types/orders.types';

/**
 * The seed's Limits for the order list with `extend: ["visit"]`: `limit` below 100 → 10 requests a
 * minute, above 100 → 5, above 1000 → 1 (100 and 1000 themselves count with the stricter tier, as
 * src/tracker/http/operation-limits.ts does). The service states no largest `limit`; 10,000 is the
 * visit list's, taken as a safe bound (the sandbox refuses more, as it does for visits and clients).
 */
export const PAGE_TIERS = [
  { limit: 99, spacingMs: 6_000 },
  { limit: 999, spacingMs: 12_000 },
  { limit: 10_000, spacingMs: 60_000 },
] as const;

/**
 * The page size that reads `remaining` orders soonest, after a first page of the smallest tier (which
 * told the total): its tier's limiter is already in use, the others start fresh (their first request
 * goes at once).
 */
export function pageSizeFor(remaining: number): number {
  let best: { limit: number; ms: number } | null = null;
  for (const [index, tier] of PAGE_TIERS.entries()) {
    const pages = Math.ceil(remaining / tier.limit);
    const ms = (index === 0 ? pages : pages - 1) * tier.spacingMs;
    if (!best || ms < best.ms) best = { limit: tier.limit, ms };
  }
  return best!.limit;
}

/** What reading the rest of a window costs at the tiers' limits, after its first page of 99 told the total. */
export interface PagesCost {
  /** requests after the first page */
  requests: number;
  /** the wait those requests take at their tier's spacing (a fresh tier's first request goes at once) */
  ms: number;
}

/** The cost of the pages ordersWithVisits reads after the first one, for a window of `total` orders. */
export function pagesCost(total: number): PagesCost {
  const remaining = total - PAGE_TIERS[0].limit;
  if (remaining <= 0) return { requests: 0, ms: 0 };
  const limit = pageSizeFor(remaining);
  const index = PAGE_TIERS.findIndex((tier) => tier.limit === limit);
  const requests = Math.ceil(remaining / limit);
  return { requests, ms: (index === 0 ? requests : requests - 1) * PAGE_TIERS[index].spacingMs };
}

/** The window's filter: orders created since `from`. */
export function windowFilters(from: Date): [['creation_date', '>=', string]] {
  return [['creation_date', '>=', formatTrackerDate(from)]];
}

/** The first page of the window (limit 99, with visits): its orders and the window's total. */
export async function firstPage(tracker: TrackerClient, from: Date, where: string): Promise<OrderListResponse> {
  return tracker.orders.list({ filters: windowFilters(from), extend: ['visit'], limit: PAGE_TIERS[0].limit, offset: 0 }).catch((error: unknown) => {
    throw new Error(`${where}: the service's order list (with visits, offset 0) failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/**
 * The project's orders created since `from`, with their visits, page by page (oldest first). Given the first
 * page (read already, to plan the pass), it is not asked again.
 */
export async function* ordersWithVisits(
  tracker: TrackerClient, from: Date, signal: AbortSignal | undefined, where: string, first?: OrderListResponse,
): AsyncGenerator<Order[]> {
  const filters = windowFilters(from);
  let offset = 0;
  let limit: number = PAGE_TIERS[0].limit;
  for (;;) {
    if (signal?.aborted) return;
    const page = offset === 0 && first ? first : await tracker.orders.list({ filters, extend: ['visit'], limit, offset }).catch((error: unknown) => {
      throw new Error(`${where}: the service's order list (with visits, offset ${offset}) failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    const orders = page.data ?? [];
    if (orders.length) yield orders;
    offset += orders.length;
    if (orders.length < limit || offset >= page.total) return;
    if (offset === orders.length) limit = pageSizeFor(page.total - offset);
  }
}
