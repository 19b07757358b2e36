import type { Client, Deal, Manager, StreamName } from '../../src/connectors/canonical';
import type { RunSummary } from '../../src/engine/engine-types';
import type { OrderDetail } from '../../src/tracker/types/orders.types';
import { CrmServer, FixtureHandler, FixtureRequest, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { WritableCrm } from '../fixtures/crm/crm-writes';
import { E2eSync } from './e2e-harness';
import { byId, orderDetails, readServiceContents, ServiceContents } from './sandbox-readback';
import {
  clientView, expectedClientView, expectedManagerView, expectedOrderDetailView, expectedOrderListView, managerView,
  orderDetailView, orderListView, sentTime, serviceTime, sortedById,
} from './service-shape';

/** A CRM fixture of test/fixtures/crm/: a handler, the preset settings a user writes, the canonical records it holds. */
export interface CrmFixture {
  handler: FixtureHandler;
  settings(url: string): Record<string, unknown>;
  expected: { managers: Manager[]; clients: Client[]; deals: Deal[] };
}

export interface PresetCase {
  preset: string;
  fixture: CrmFixture;
  /** records the engine's checks refuse (the service would refuse them): stream, id, field */
  refused?: { stream: StreamName; id: string; field: string }[];
  /** fixture requests that list deals */
  isDealsList(request: FixtureRequest): boolean;
  /**
   * How a deals request asks the CRM for changes since the window start: `read` takes the value out of a
   * request, `format` writes the expected window start in the CRM's own format. Absent for a CRM without
   * a changed-since filter (the connector applies the window itself; the engine's counters prove the rest).
   */
  changedSince?: { read(request: FixtureRequest): string | undefined; format(since: Date): string };
  /** the fixture CRM behind `fixture.handler`, when it can add a product to a deal (products and history) */
  crm?: WritableCrm;
}

export interface PresetContext {
  crm: CrmServer;
  e2e: E2eSync;
  first: RunSummary;
  contents: ServiceContents;
}

const OVERLAP_SECONDS = 300;

/**
 * The end-to-end suite every preset passes: the CRM fixture on loopback, a real engine run into the sandbox,
 * every manager, client and deal read back over the service's API and compared field by field with the
 * fixture's canonical records; then a second run that sends nothing and asks the CRM only for what changed.
 */
export function describePresetEndToEnd(c: PresetCase, extra?: (ctx: () => PresetContext) => void): void {
  describe(`e2e: preset ${c.preset} → engine → sandbox`, () => {
    const ctx = {} as PresetContext;
    const { expected } = c.fixture;
    const refusedIds = (stream: StreamName) => new Set((c.refused ?? []).filter((r) => r.stream === stream).map((r) => r.id));
    const accepted = <T extends { id: string }>(stream: StreamName, items: T[]) => items.filter((i) => !refusedIds(stream).has(i.id));

    beforeAll(async () => {
      ctx.crm = await startCrmServer(c.fixture.handler);
      ctx.e2e = await E2eSync.start({ connectionId: c.preset, connector: 'generic-crm', settings: c.fixture.settings(ctx.crm.url) });
      const visits = expected.deals.map((d) => d.visit_id).filter((v): v is string => !!v);
      await ctx.e2e.registerVisits(visits);
      ctx.first = await ctx.e2e.run();
      ctx.contents = await readServiceContents(ctx.e2e.tracker);
    });
    afterAll(async () => {
      await ctx.e2e?.stop();
      await ctx.crm?.close();
    });

    it('the first run succeeds and sends every record the checks accept', () => {
      expect({ status: ctx.first.status, error: ctx.first.error }).toEqual({ status: 'succeeded', error: null });
      for (const stream of ['managers', 'clients', 'deals'] as const) {
        const refused = refusedIds(stream).size;
        expect({ stream, ...ctx.first.streams[stream] }).toMatchObject({
          stream, read: expected[stream].length, sent: expected[stream].length - refused, rejected: refused, unchanged: 0,
        });
      }
      const withoutVisit = expected.deals.filter((d) => !d.visit_id).length;
      expect(ctx.first.streams.deals?.sent_without_visit).toBe(withoutVisit);
      expect(ctx.first.counters).toMatchObject({
        processed: expected.deals.length, saved: expected.deals.length, skipped_by_status: 0, skipped_by_waiting_visit_info: 0,
        skipped_by_invalid_format: 0, skipped_fields_by_invalid_format: 0,
      });
    });

    it('records the engine refuses are rejected records naming the id and the field', () => {
      const rejected = ctx.first.rejected.map((r) => ({ stream: r.stream, id: r.external_id, field: r.field }));
      expect(rejected).toEqual(c.refused ?? []);
    });

    it('every manager arrived, field by field', () => {
      expect(sortedById(ctx.contents.managers.map(managerView))).toEqual(sortedById(accepted('managers', expected.managers).map(expectedManagerView)));
    });

    it('every client arrived, field by field (custom fields by name)', async () => {
      expect(sortedById(ctx.contents.clients.map(clientView))).toEqual(sortedById(expected.clients.map(expectedClientView)));
      const fields = await ctx.e2e.clientFields();
      for (const client of expected.clients) {
        expect({ client: client.id, fields: fields.get(client.id) }).toEqual({ client: client.id, fields: client.custom_fields ?? {} });
      }
    });

    it('every deal is an order with the right price, status, visit, client, date and custom fields', () => {
      expect(sortedById(ctx.contents.orders.map(orderListView))).toEqual(sortedById(expected.deals.map(expectedOrderListView)));
    });

    it('order info shows each deal linked to its client, with its title', async () => {
      const details = await orderDetails(ctx.e2e.tracker, expected.deals.map((d) => d.id));
      const clients = byId(expected.clients, (client) => client.id);
      for (const deal of expected.deals) {
        const client = deal.client_id ? clients.get(deal.client_id) : undefined;
        expect({ deal: deal.id, ...orderDetailView(details.get(deal.id)!) }).toEqual({ deal: deal.id, ...expectedOrderDetailView(deal, client) });
      }
    });

    it('a second run sends nothing (and asks the CRM only for deals changed since the cursor minus the overlap)', async () => {
      const before = ctx.crm.requests.length;
      const second = await ctx.e2e.run();
      expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
      for (const stream of ['managers', 'clients', 'deals'] as const) {
        const counters = second.streams[stream]!;
        expect({ stream, sent: counters.sent }).toEqual({ stream, sent: 0 });
        expect({ stream, read: counters.read }).toEqual({ stream, read: counters.unchanged + counters.rejected });
      }
      expect(second.counters.processed).toBe(0);
      const latest = Math.max(...expected.deals.map((d) => d.updated_at!.getTime()));
      const dealLists = ctx.crm.requests.slice(before).filter(c.isDealsList);
      expect(dealLists.length).toBeGreaterThan(0);
      if (c.changedSince) {
        expect(c.changedSince.read(dealLists[0])).toBe(c.changedSince.format(new Date(latest - OVERLAP_SECONDS * 1000)));
      }
      const after = await readServiceContents(ctx.e2e.tracker);
      expect(after.orders.map(orderListView)).toEqual(ctx.contents.orders.map(orderListView));
    });

    const paidStatuses = new Set(['1']);
    const withHistory = expected.deals.filter((d) => (d.history ?? []).some((h) => paidStatuses.has(h.status)) && paidStatuses.has(d.status ?? ''));
    if (withHistory.length > 0) {
      it('a paid deal is paid on the date its history reached the paid stage (not on the day of the sync)', async () => {
        const details = await orderDetails(ctx.e2e.tracker, withHistory.map((d) => d.id));
        for (const deal of withHistory) {
          const paid = deal.history!.filter((h) => paidStatuses.has(h.status)).map((h) => h.date.getTime());
          const date = new Date(Math.max(...paid));
          expect({ deal: deal.id, paid: details.get(deal.id)!.order.paid_date }).toEqual({ deal: deal.id, paid: serviceTime(date) });
        }
      });
    }

    // closed deals whose history has no move into their status (amoCRM's lead 7004: won, no event): the CRM's
    // close time dates the payment or the cancellation, not the sync
    const closedWithoutMove = expected.deals.filter((d) => d.closed_at && !(d.history ?? []).some((h) => h.status === d.status));
    if (closedWithoutMove.length > 0) {
      it("a closed deal without a dated move into its status is paid (or canceled) at the CRM's close time, not on the day of the sync", async () => {
        const details = await orderDetails(ctx.e2e.tracker, closedWithoutMove.map((d) => d.id));
        for (const deal of closedWithoutMove) {
          const order = details.get(deal.id)!.order as OrderDetail['order'] & { history?: { date: string; status: string }[] };
          expect({ deal: deal.id, moves: (order.history ?? []).filter((h) => h.status === deal.status).map((h) => h.date) })
            .toEqual({ deal: deal.id, moves: [sentTime(deal.closed_at!)] });
          if (paidStatuses.has(deal.status ?? '')) {
            expect({ deal: deal.id, paid: order.paid_date }).toEqual({ deal: deal.id, paid: serviceTime(deal.closed_at!) });
          }
        }
      });
    }

    const addProduct = c.crm?.addProduct?.bind(c.crm);
    if (addProduct) {
      it('a product added to one deal re-sends that deal only, with the product', async () => {
        const deal = expected.deals.find((d) => (d.products ?? []).length > 0)!;
        const product = addProduct(deal.id);
        const third = await ctx.e2e.run();
        expect({ status: third.status, error: third.error }).toEqual({ status: 'succeeded', error: null });
        expect({ sent: third.streams.deals?.sent, processed: third.counters.processed }).toEqual({ sent: 1, processed: 1 });
        const details = await orderDetails(ctx.e2e.tracker, [deal.id]);
        const view = orderDetailView(details.get(deal.id)!);
        const expectedView = expectedOrderDetailView({ ...deal, products: [...deal.products!, product] }, undefined);
        expect(view.products).toEqual(expectedView.products);
        const fourth = await ctx.e2e.run();
        expect(fourth.streams.deals?.sent).toBe(0);
      });
    }

    extra?.(() => ctx);
  });
}
