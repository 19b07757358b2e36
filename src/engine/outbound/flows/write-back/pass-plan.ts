import type { WriteBackPlan } from '../../../../connectors/connector-definition';
import type { RateLimitBudget } from '../../../../tracker/http/rate-limits';
import type { OrderListResponse } from '../../../../tracker/types/orders.types';
import type { FlowCost, FlowEstimate, FlowPass } from '../../outbound-flow';
import { VISITS_PER_REQUEST } from './order-info';
import { firstPage, PAGE_TIERS, pageSizeFor, pagesCost } from './order-pages';

const DAY_MS = 86_400_000;
/**
 * A deal is acknowledged after it was created, so the deals synced since the window's start hold every deal of
 * the window; a day more covers a CRM whose creation dates run ahead of this clock (a time zone read wrong).
 */
const ACK_SLACK_MS = DAY_MS;
/** The service's own allowance per project when this client keeps no budget of its own (`rate_limit: off`). */
const SERVICE_BUDGET: RateLimitBudget = { per_second: 10, per_hour: 5000 };
/** Above this many deals to look up one by one, the pages are always cheaper: their ids are not loaded. */
const MAX_DEALS_BY_INFO = 50_000;

/**
 * How a pass learns the visits of the connection's deals, chosen per pass by cost:
 * - `order_pages`: the window's order list with visits, every order of the project created in the window, at
 *   the list's tiers (99 a request at 10 a minute, 999 at 5, 10,000 at 1): its cost grows with the project;
 * - `order_info`: the order info of each deal of this connection synced in the window (record_state), and
 *   their visits from the visit list: its cost grows with the connection's deals.
 * Both begin with the window's first page (99 orders, which also tells how many orders the window holds).
 */
export interface WriteBackPassPlan {
  /** the window's first page, read to plan (the pass starts from it) */
  first: OrderListResponse;
  way: 'order_pages' | 'order_info';
  /** `order_info`: the deals to look up (those of the first page left out) */
  dealIds: string[];
  estimate: FlowEstimate;
}

export function windowStart(pass: FlowPass<WriteBackPlan>): Date {
  return new Date(pass.now.getTime() - pass.plan.sinceDays * DAY_MS);
}

/** Reads the window's first page and the connection's synced deals, and weighs the two ways. */
export async function planPass(pass: FlowPass<WriteBackPlan>): Promise<WriteBackPassPlan> {
  const from = windowStart(pass);
  const where = `connection ${pass.connectionId}`;
  const first = await firstPage(pass.tracker, from, where);
  const firstIds = (first.data ?? []).map((order) => order.id);
  const inFirst = await pass.store.known(pass.connectionId, 'deals', firstIds);
  const synced = await pass.store.acknowledgedSince(pass.connectionId, 'deals', new Date(from.getTime() - ACK_SLACK_MS), MAX_DEALS_BY_INFO);
  const seen = new Set(firstIds);
  const dealIds = synced.ids?.filter((id) => !seen.has(id)) ?? null;
  const deals = dealIds?.length ?? Math.max(0, synced.count - inFirst.size);

  const { chosen, other } = weighWays(first.total, deals, dealIds !== null, budgetOf(pass), inFirst.size);
  const infoFirst = chosen.way === 'order_info';
  return {
    first,
    way: infoFirst ? 'order_info' : 'order_pages',
    dealIds: infoFirst ? dealIds! : [],
    estimate: {
      summary: `${count(first.total)} orders of the project created since ${from.toISOString().slice(0, 10)}; `
        + `${count(synced.count)} deals of this connection synced since then${inFirst.size ? ` (${count(inFirst.size)} of them on the first page)` : ''}`,
      chosen,
      others: [other],
      worthShowing: first.total > (first.data ?? []).length,
    },
  };
}

/**
 * The two ways for a window of `total` orders (its first page read) and `deals` of the connection to look up
 * (`onFirstPage` more are on the first page),
 * the cheaper first: by time at the limits, then by requests; the pages when a tie (a window that fits in its
 * first page costs nothing more) or when the deals are too many to load (`idsLoaded` false).
 * Time at the limits: the pages at their tier's spacing; the order infos at the installation's hourly share of
 * the project's budget (they have no limit of their own in the Limits table, and draw on the budget the syncs
 * need too, so they are counted at the pace the hour allows rather than at the per-second burst).
 */
export function weighWays(
  total: number, deals: number, idsLoaded: boolean, budget: RateLimitBudget, onFirstPage = 0,
): { chosen: FlowCost; other: FlowCost } {
  const perRequest = 3600 / budget.per_hour;
  const pages = pagesCost(total);
  const byPages: FlowCost = {
    way: 'order_pages',
    text: `the window's order list with visits: ${count(total)} orders in pages of up to ${count(pageLimit(total))}`,
    requests: 1 + pages.requests,
    seconds: Math.max(pages.ms / 1000, pages.requests * perRequest),
  };
  const infoRequests = deals + Math.ceil(deals / VISITS_PER_REQUEST);
  const byInfo: FlowCost = {
    way: 'order_info',
    // the deals of the first page are read already: the count differs from the summary's, and says why
    text: `order info for ${onFirstPage ? 'the other ' : ''}${count(deals)} deals of this connection, their visits from the visit list`,
    requests: 1 + infoRequests,
    seconds: infoRequests * perRequest,
  };
  const infoFirst = idsLoaded && (byInfo.seconds < byPages.seconds || (byInfo.seconds === byPages.seconds && byInfo.requests < byPages.requests));
  return infoFirst ? { chosen: byInfo, other: byPages } : { chosen: byPages, other: byInfo };
}

function budgetOf(pass: FlowPass<WriteBackPlan>): RateLimitBudget {
  return pass.tracker.rateLimit === 'off' ? SERVICE_BUDGET : pass.tracker.rateLimit;
}

/** The page size the rest of the window is read with (the first page's when it holds the whole window). */
function pageLimit(total: number): number {
  const rest = total - PAGE_TIERS[0].limit;
  return rest > 0 ? pageSizeFor(rest) : PAGE_TIERS[0].limit;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
