import { weighWays } from '../../../../src/engine/outbound/flows/write-back/pass-plan';
import { aboutTime, costText } from '../../../../src/engine/outbound/flows/write-back/plan-text';
import { DEFAULT_RATE_LIMIT } from '../../../../src/tracker/http/rate-limits';

/**
 * The way a write-back pass reads the visits, after the window's first page (99 orders) told its total:
 * the rest of the window's pages at their tiers, or the order info of each deal of the connection (plus a
 * visit list request per 100) at the installation's hourly budget (4,000 an hour: 0.9 s a request).
 */
describe('write-back: the cheaper way to read the visits of a pass', () => {
  const ways = (total: number, deals: number, idsLoaded = true, budget = DEFAULT_RATE_LIMIT) => {
    const { chosen, other } = weighWays(total, deals, idsLoaded, budget);
    return { chosen: [chosen.way, chosen.requests, Math.round(chosen.seconds * 10) / 10], other: [other.way, other.requests, Math.round(other.seconds * 10) / 10] };
  };

  it.each([
    // a window that fits in its first page: nothing more to read
    [50, 0, ['order_pages', 1, 0], ['order_info', 1, 0]],
    [50, 3, ['order_pages', 1, 0], ['order_info', 5, 3.6]],
    // one more page of 999 goes at once (a fresh tier); the budget's 0.9 s for it is still less than 4 order infos
    [150, 3, ['order_pages', 2, 0.9], ['order_info', 5, 3.6]],
    // 200,006 orders: 20 pages of 10,000 after the first, one a minute (19 min) against seconds for a few deals
    [200_006, 6, ['order_info', 8, 6.3], ['order_pages', 21, 1140]],
    [200_006, 1_200, ['order_info', 1_213, 1090.8], ['order_pages', 21, 1140]],
    [200_006, 1_300, ['order_pages', 21, 1140], ['order_info', 1_314, 1181.7]],
    [200_006, 3_000, ['order_pages', 21, 1140], ['order_info', 3_031, 2727]],
  ])('%i orders in the window, %i deals to look up → %j', (total, deals, chosen, other) => {
    expect(ways(total, deals)).toEqual({ chosen, other });
  });

  it('deals already on the first page: the order info counts the other ones and says so (one pass, one figure each)', () => {
    const { chosen } = weighWays(200_006, 40, true, DEFAULT_RATE_LIMIT, 7);
    expect(chosen.text).toBe('order info for the other 40 deals of this connection, their visits from the visit list');
    expect(weighWays(200_006, 40, true, DEFAULT_RATE_LIMIT).chosen.text).toBe('order info for 40 deals of this connection, their visits from the visit list');
  });

  it('too many deals to load their ids: the pages, whatever the figures say', () => {
    expect(ways(200_006, 6, false).chosen[0]).toBe('order_pages');
  });

  it('the order infos are counted at the hourly budget: a smaller share makes them dearer', () => {
    expect(ways(200_006, 6, true, { per_second: 8, per_hour: 100 })).toEqual({ chosen: ['order_info', 8, 252], other: ['order_pages', 21, 1140] });
    expect(ways(20_000, 6, true, { per_second: 8, per_hour: 100 }).chosen[0]).toBe('order_pages'); // 2 pages: 1 min vs 4.2 min
  });

  it('says the cost in requests and time, rounded up', () => {
    expect(costText({ requests: 1, seconds: 0 })).toBe("1 request, about 0 s at the service's limits");
    expect(costText({ requests: 21, seconds: 1140 })).toBe("21 requests, about 19 min at the service's limits");
    expect([aboutTime(6.3), aboutTime(60.5), aboutTime(2727), aboutTime(7_800)]).toEqual(['7 s', '2 min', '46 min', '2 h 10 min']);
  });
});
