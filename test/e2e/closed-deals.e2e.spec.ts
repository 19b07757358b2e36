import type { Deal } from '../../src/connectors/canonical';
import type { RunSummary } from '../../src/engine/engine-types';
import type { OrderDetail } from '../../src/tracker/types/orders.types';
import * as amocrm from '../fixtures/crm/amocrm';
import * as bitrix24 from '../fixtures/crm/bitrix24';
import { CrmServer, FixtureHandler, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as hubspot from '../fixtures/crm/hubspot';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { E2eSync } from './e2e-harness';
import { orderDetails } from './sandbox-readback';
import { expectedHistory, sentTime, serviceTime } from './service-shape';

/**
 * A won or lost deal without a dated move into its status reaches the service dated by the CRM's close time, not
 * by the sync: each preset with its stage history off (`history: false`; the same when the CRM refuses it, or its
 * log no longer holds the move), so no deal has a history of its own. What each CRM records of the close (the
 * fixtures answer as the vendors' references have it): amoCRM `closed_at`, Bitrix24 `movedTime` of a `closed`
 * deal, Pipedrive `won_time` / `lost_time`, HubSpot `closedate` of a deal `hs_is_closed`. An open deal's close
 * date (HubSpot's and Bitrix24's expected one) is no close: its order gets no history.
 */
interface ClosedCase {
  preset: string;
  handler(): FixtureHandler;
  settings(url: string): Record<string, unknown>;
  deals: Deal[];
}

const cases: ClosedCase[] = [
  { preset: 'amocrm', handler: () => amocrm.createCrm().handler, settings: amocrm.settings, deals: amocrm.expected.deals },
  { preset: 'bitrix24', handler: () => bitrix24.createHandler(), settings: bitrix24.settings, deals: bitrix24.expected.deals },
  { preset: 'pipedrive', handler: () => pipedrive.createHandler(), settings: pipedrive.settings, deals: pipedrive.expected.deals },
  { preset: 'hubspot', handler: () => hubspot.createHandler(), settings: hubspot.settings, deals: hubspot.expected.deals },
];

const PAID = '1';

type OrderWithHistory = OrderDetail['order'] & { history?: { date: string; status: string; price: number | null }[] };

describe.each(cases)('e2e: preset $preset, stage history off: a closed deal is dated by the CRM\'s close time', (c) => {
  let crm: CrmServer;
  let e2e: E2eSync;
  let run: RunSummary;
  let orders: Map<string, OrderWithHistory>;
  const closed = c.deals.filter((d) => d.closed_at);
  const open = c.deals.filter((d) => !d.closed_at);

  beforeAll(async () => {
    crm = await startCrmServer(c.handler());
    e2e = await E2eSync.start({ connectionId: `${c.preset}-closed`, connector: 'generic-crm', settings: { ...c.settings(crm.url), history: false } });
    await e2e.registerVisits(c.deals.map((d) => d.visit_id).filter((v): v is string => !!v));
    run = await e2e.run();
    const details = await orderDetails(e2e.tracker, c.deals.map((d) => d.id));
    orders = new Map([...details].map(([id, detail]) => [id, detail.order as OrderWithHistory]));
  });
  afterAll(async () => {
    await e2e?.stop();
    await crm?.close();
  });

  it('the fixture holds a won deal, and the run sends every deal', () => {
    expect(closed.filter((d) => d.status === PAID).length).toBeGreaterThan(0);
    expect({ status: run.status, error: run.error, sent: run.streams.deals?.sent }).toEqual({ status: 'succeeded', error: null, sent: c.deals.length });
  });

  it("a won deal is paid at the CRM's close time (not on the day of the sync), through its move into won at that time", () => {
    for (const deal of closed.filter((d) => d.status === PAID)) {
      const order = orders.get(deal.id)!;
      expect({ deal: deal.id, paid: order.paid_date }).toEqual({ deal: deal.id, paid: serviceTime(deal.closed_at!) });
      expect({ deal: deal.id, history: order.history }).toEqual({
        deal: deal.id, history: [{ date: sentTime(deal.closed_at!), status: PAID, price: deal.price ?? null, cost: null }],
      });
    }
  });

  it("a lost deal's order holds its move into its status at the CRM's close time, and no payment", () => {
    const lost = closed.filter((d) => d.status !== PAID);
    expect(lost.length).toBeGreaterThan(0);
    for (const deal of lost) {
      const order = orders.get(deal.id)!;
      expect({ deal: deal.id, paid: order.paid_date, history: order.history }).toEqual({
        deal: deal.id, paid: null,
        history: expectedHistory({ ...deal, history: undefined }).map((h) => ({ date: sentTime(h.date), status: h.status, price: h.price ?? null, cost: null })),
      });
    }
  });

  it('an open deal gets no history entry (an expected close date is no close)', () => {
    expect(open.length).toBeGreaterThan(0);
    for (const deal of open) {
      const order = orders.get(deal.id)!;
      expect({ deal: deal.id, paid: order.paid_date, history: order.history ?? [] }).toEqual({ deal: deal.id, paid: null, history: [] });
    }
  });
});
