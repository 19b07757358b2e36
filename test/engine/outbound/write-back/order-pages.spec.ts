import { pageSizeFor } from '../../../../src/engine/outbound/flows/write-back/order-pages';

/**
 * After the first page (limit 99, 10 a minute: 6 s apart) told the total: 99-pages cost 6 s each, a fresh
 * tier's first request goes at once, then 12 s (limit 999) or 60 s (limit 10,000) per further page.
 */
describe('the order list page size after the first page', () => {
  it.each([
    [1, 999], // one fresh request of the 5-a-minute tier goes at once; another 99-page would wait 6 s
    [500, 999],
    [999, 999],
    [1_000, 10_000], // 2 pages of 999 wait 12 s; one page of 10,000 none
    [9_000, 10_000], // 8 × 12 s against 0
    [10_500, 10_000], // 10 × 12 s = 120 s against 60 s
    [25_000, 10_000], // 25 pages: 288 s against 2 × 60 s
  ])('%i orders left → limit %i', (remaining, limit) => {
    expect(pageSizeFor(remaining)).toBe(limit);
  });
});
