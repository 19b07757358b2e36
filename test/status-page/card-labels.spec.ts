import { STATUS_PAGE_CSS } from '../../src/status-page/status-page.styles';
import { OUTBOUND_FLOWS } from '../../src/application/flow-descriptions';

/**
 * At 390 px the tables become cards: a label column (12 px text) beside each value. The flows' counter names must
 * fit in it (at most about 0.6 em a character), and a longer label wraps inside it instead of pushing the value
 * out of line. (The layout itself is measured in headless Chromium by layout.spec.ts where Chromium is installed.)
 */
describe('status page: the card labels on a phone', () => {
  const rule = /table\.cards td::before \{([^}]*)\}/.exec(STATUS_PAGE_CSS)?.[1] ?? '';

  it('the label column is wide enough for every counter name of the flows, and wraps a longer one', () => {
    const basis = Number(/flex: 0 0 ([\d.]+)em/.exec(rule)?.[1]);
    const longest = Math.max(...Object.values(OUTBOUND_FLOWS).flatMap((flow) => Object.keys(flow.counters).map((name) => name.length)));
    expect(longest).toBeGreaterThanOrEqual('already_delivered'.length);
    expect(basis).toBeGreaterThanOrEqual(longest * 0.58);
    expect(rule).toMatch(/overflow-wrap: anywhere/);
  });
});
