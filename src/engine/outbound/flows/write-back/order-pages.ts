import { formatTrackerDate } from '../../../../tracker/tracker-date';
import type { TrackerClient } from '../../../../tracker/tracker-client';
import type { Order } from '../../../../tracker/types/orders.types';

/**
 * The seed's Limits for the order list with `extend: ["visit"]`: `limit` below 100 → 10 requests a
 * minute, above 100 → 5, above 1000 → 1 (100 and 1000 themselves count with the stricter tier, as
 * src/tracker/http/operation-limits.ts does). The service states no largest `limit`; 10,000 is the
 * visit list's, taken as a safe bound.
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

/** The project's orders created since `from`, with their visits, page by page (oldest first). */
export async function* ordersWithVisits(tracker: TrackerClient, from: Date, signal: AbortSignal | undefined, where: string): AsyncGenerator<Order[]> {
  const filters = [['creation_date', '>=', formatTrackerDate(from)] as ['creation_date', '>=', string]];
  let offset = 0;
  let limit: number = PAGE_TIERS[0].limit;
  for (;;) {
    if (signal?.aborted) return;
    const page = await tracker.orders.list({ filters, extend: ['visit'], limit, offset }).catch((error: unknown) => {
      throw new Error(`${where}: the service's order list (with visits, offset ${offset}) failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    const orders = page.data ?? [];
    if (orders.length) yield orders;
    offset += orders.length;
    if (orders.length < limit || offset >= page.total) return;
    if (offset === orders.length) limit = pageSizeFor(page.total - offset);
  }
}
