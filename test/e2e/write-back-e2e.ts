import type { AttributionValue } from '../../src/connectors/connector-definition';
import type { RunSummary } from '../../src/engine/engine-types';
import { DEFAULT_RATE_LIMIT } from '../../src/tracker/http/rate-limits';
import type { Visit } from '../../src/tracker/types/visits.types';
import { CrmServer, FixtureRequest, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { generatedDeals, peakInWindow, WritableCrm, WritableCrmOptions } from '../fixtures/crm/crm-writes';
import { E2eSync } from './e2e-harness';

/** A preset's write-back case: its fixture CRM, the fields a user configures, where they land. */
export interface WriteBackCase {
  preset: string;
  fixture: { createCrm(options: WritableCrmOptions): WritableCrm; settings(url: string): Record<string, unknown> };
  /** settings.write_back.fields as a user writes them (by name and by id) */
  fields: Partial<Record<AttributionValue, string | number>>;
  /** the CRM's key of each configured field (what the fixture's fieldsOf shows) */
  keys: Partial<Record<AttributionValue, string>>;
  /** ids of the generated deals: index → CRM deal id */
  dealId(index: number): string;
  /** visits of the fixture's own deals (created in 2024, before since_days): registered, so they are attributed but old */
  oldVisits: string[];
  /** generated deals (every fifth without a visit) */
  moreDeals: number;
  /** list page size of the CRM (its documented maximum) */
  pageSize: number;
  /** deals per update request and the preset's rate limit, as its YAML declares them */
  batchSize: number;
  rateLimit: { requests: number; per_seconds: number };
  /** what the CRM answers an update of a deal it no longer has */
  refusal: RegExp;
}

interface Context {
  crm: WritableCrm;
  server: CrmServer;
  e2e: E2eSync;
  first: RunSummary;
  before: Map<string, Record<string, string | null>>;
  visits: Map<string, Visit>;
}

/** A visit another channel than the first generated deal's: 'Прямые заходы', no UTM tags (its values clear the UTM fields). */
const OTHER_VISIT = '1001003';
/**
 * A limiter spaces the requests' starts; on a loaded machine one may reach the server later than it left, so
 * arrivals are counted in a window this much shorter than the limit's (a missing limiter still shows at once).
 */
const JITTER_MS = 100;

/**
 * Write-back end to end for one preset: the fixture CRM on loopback with the preset's own rate limit, a real
 * engine syncing it into the sandbox (the tracker client keeping the service's limits), each sync followed by
 * a write-back pass. The CRM's update requests and the service's calls are recorded with their arrival times.
 */
export function describeWriteBack(c: WriteBackCase): void {
  describe(`e2e: write-back into ${c.preset}`, () => {
    const ctx = {} as Context;
    const generated = generatedDeals(c.moreDeals);
    const attributed = generated.filter((deal) => deal.visitId).map((deal) => c.dealId(deal.index));
    const withoutVisit = generated.filter((deal) => !deal.visitId).map((deal) => c.dealId(deal.index));
    const updates = (requests: FixtureRequest[]) => requests.filter((request) => ctx.crm.updatedIds(request).length > 0);
    const updatedIds = (requests: FixtureRequest[]) => updates(requests).flatMap((request) => ctx.crm.updatedIds(request));
    /** the configured fields as the CRM holds them now: an empty or cleared field reads '' */
    const written = (id: string) => Object.fromEntries(Object.entries(c.keys).map(([value, key]) => [value, ctx.crm.fieldsOf(id)[key!] ?? '']));
    const expectedFor = (visitId: string) => expectedValues(ctx.visits.get(visitId)!, Object.keys(c.fields) as AttributionValue[]);

    beforeAll(async () => {
      ctx.crm = c.fixture.createCrm({ pageSize: c.pageSize, moreDeals: c.moreDeals });
      ctx.server = await startCrmServer(ctx.crm.handler);
      const { rate_limit: _fast, ...settings } = c.fixture.settings(ctx.server.url);
      ctx.e2e = await E2eSync.start({
        connectionId: `write-back-${c.preset}`, connector: 'generic-crm',
        settings: { ...settings, write_back: { fields: c.fields } },
        trackerRateLimit: DEFAULT_RATE_LIMIT, recordServiceCalls: true,
      });
      await ctx.e2e.registerVisits(c.oldVisits);
      ctx.visits = await visitsOf(ctx.e2e, [...generated.map((deal) => deal.visitId!).filter(Boolean), OTHER_VISIT]);
      ctx.before = new Map(ctx.crm.dealIds().map((id) => [id, ctx.crm.fieldsOf(id)]));
      ctx.first = await ctx.e2e.run();
    });
    afterAll(async () => {
      await ctx.e2e?.stop();
      await ctx.server?.close();
    });

    it('the first sync is followed by a write-back that writes every attributed deal of the window', () => {
      expect({ status: ctx.first.status, error: ctx.first.error, log: ctx.first.error ? ctx.e2e.log() : '' }).toMatchObject({ status: 'succeeded', error: null });
      const pass = ctx.first.followedBy;
      expect({ mode: pass?.mode, status: pass?.status, error: pass?.error }).toEqual({ mode: 'write_back', status: 'succeeded', error: null });
      expect(pass!.writeBack).toEqual({ attributed: attributed.length, written: attributed.length, unchanged: 0, rejected: 0 });
    });

    it('attributed deals get exactly the configured fields, with their visit\'s values', () => {
      for (const deal of generated.filter((d) => d.visitId)) {
        const id = c.dealId(deal.index);
        expect({ id, values: written(id) }).toEqual({ id, values: expectedFor(deal.visitId!) });
        const untouched = (fields: Record<string, string | null>) =>
          Object.fromEntries(Object.entries(fields).filter(([key]) => !Object.values(c.keys).includes(key)));
        expect({ id, others: untouched(ctx.crm.fieldsOf(id)) }).toEqual({ id, others: untouched(ctx.before.get(id)!) });
      }
      // the demo visit 1000001 came from a Yandex Direct search ad in Moscow
      const first = written(c.dealId(0));
      if ('channel' in c.keys) expect(first.channel).toBe('Реклама / Яндекс Директ / Поиск');
      if ('utm_campaign' in c.keys) expect(first.utm_campaign).toBe('poisk_divany_msk');
      if ('city' in c.keys) expect(first.city).toBe('Москва');
    });

    it('deals without a visit and deals created before since_days are not touched', () => {
      const touched = new Set(updatedIds(ctx.server.requests));
      const old = ctx.crm.dealIds().filter((id) => !attributed.includes(id) && !withoutVisit.includes(id));
      expect(old.length).toBeGreaterThan(0);
      for (const id of [...withoutVisit, ...old]) {
        expect({ id, touched: touched.has(id), fields: ctx.crm.fieldsOf(id) }).toEqual({ id, touched: false, fields: ctx.before.get(id) });
      }
    });

    it(`updates go in the preset's batches (at most ${c.batchSize} deals a request)`, () => {
      const sizes = updates(ctx.server.requests).map((request) => ctx.crm.updatedIds(request).length);
      expect(sizes.length).toBe(Math.ceil(attributed.length / c.batchSize));
      expect(Math.max(...sizes)).toBeLessThanOrEqual(c.batchSize);
      expect(new Set(updatedIds(ctx.server.requests))).toEqual(new Set(attributed));
    });

    it('the next sync re-sends no deal although the CRM marked the written ones modified, and its write-back writes nothing', async () => {
      const from = ctx.server.requests.length;
      const second = await ctx.e2e.run();
      expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
      expect(second.streams.deals?.sent).toBe(0);
      expect(second.followedBy?.writeBack).toEqual({ attributed: attributed.length, written: 0, unchanged: attributed.length, rejected: 0 });
      expect(updates(ctx.server.requests.slice(from))).toEqual([]);
    });

    it('a deal whose visit changes gets its fields updated, and only that deal', async () => {
      const changed = c.dealId(0);
      expect(expectedFor(OTHER_VISIT)).not.toEqual(written(changed));
      ctx.crm.setVisit(changed, OTHER_VISIT);
      const from = ctx.server.requests.length;
      const third = await ctx.e2e.run();
      expect(third.streams.deals?.sent).toBe(1);
      expect(third.followedBy?.writeBack).toEqual({ attributed: attributed.length, written: 1, unchanged: attributed.length - 1, rejected: 0 });
      expect(updatedIds(ctx.server.requests.slice(from))).toEqual([changed]);
      expect(written(changed)).toEqual(expectedFor(OTHER_VISIT));
    });

    it('a deal the CRM no longer has is a rejected write with the CRM\'s reason, and the pass goes on', async () => {
      const gone = c.dealId(1);
      ctx.crm.deleteDeal(gone);
      // its visit changes in the service, so the pass has something to write into the deal
      await ctx.e2e.sandbox.post('_sandbox/visits', [{ id: generated[1].visitId, source: { system_name: 'vk_ads' } }]);
      const pass = await ctx.e2e.writeBack();
      expect({ status: pass.status, error: pass.error }).toEqual({ status: 'succeeded', error: null });
      expect(pass.writeBack).toEqual({ attributed: attributed.length, written: 0, unchanged: attributed.length - 1, rejected: 1 });
      expect(pass.rejected.map((r) => ({ stream: r.stream, id: r.external_id, reason: r.reason }))).toEqual([
        { stream: 'write_back', id: gone, reason: expect.stringMatching(c.refusal) },
      ]);
    });

    it('request spacing stays within both sides\' limits: the CRM\'s rate limit and the order list\'s tiers', () => {
      const { requests, per_seconds } = c.rateLimit;
      const crmTimes = ctx.server.requests.map((request) => request.at);
      expect(peakInWindow(crmTimes, per_seconds * 1000 - JITTER_MS)).toBeLessThanOrEqual(requests);
      // the connection's limiter spaces them evenly: a second holds its share of the window, no burst
      expect(peakInWindow(crmTimes, 1000 - JITTER_MS)).toBeLessThanOrEqual(Math.ceil(requests / per_seconds));
      const calls = ctx.e2e.serviceCalls!.calls;
      const lists = calls.filter((call) => call.path.endsWith('/project/integration/order/list') && call.body?.extend?.includes('visit'));
      expect(lists.length).toBeGreaterThanOrEqual(3);
      for (const tier of ORDER_LIST_TIERS) {
        const times = lists.filter((call) => tier.applies(Number(call.body.limit))).map((call) => call.at);
        const peak = peakInWindow(times, 60_000 - 10 * JITTER_MS);
        expect({ tier: tier.name, peak, withinLimit: peak <= tier.perMinute }).toMatchObject({ tier: tier.name, withinLimit: true });
        // spaced evenly (the client never bursts at a window's edge): a pass right after a sync waits its turn
        const gaps = times.slice(1).map((at, i) => at - times[i]);
        const closest = Math.min(...gaps);
        expect({ tier: tier.name, closest, spaced: closest >= 60_000 / tier.perMinute - 10 * JITTER_MS }).toMatchObject({ tier: tier.name, spaced: true });
      }
      expect(peakInWindow(calls.map((call) => call.at), 1000 - JITTER_MS)).toBeLessThanOrEqual(10);
    });
  });
}

/** The seed's Limits for the order list with `extend: ["visit"]` (100 and 1000 counted with the stricter tier). */
const ORDER_LIST_TIERS = [
  { name: 'limit below 100', perMinute: 10, applies: (limit: number) => limit < 100 },
  { name: 'limit above 100', perMinute: 5, applies: (limit: number) => limit >= 100 && limit < 1000 },
  { name: 'limit above 1000', perMinute: 1, applies: (limit: number) => !(limit < 1000) },
];

/** The test's own reading of a visit's values (the README's table), from the Visit record the service holds. */
function expectedValues(visit: Visit, values: AttributionValue[]): Record<string, string> {
  const source = visit.source;
  const all: Partial<Record<AttributionValue, string>> = {
    channel: source.display_name_by_level.join(' / '),
    channel_1: source.display_name_by_level[0] ?? '',
    utm_source: source.utm_source ?? '',
    utm_campaign: source.utm_campaign ?? '',
    landing_page: visit.landing_page,
    city: visit.geo.city,
  };
  return Object.fromEntries(values.map((value) => [value, all[value] ?? `(the test reads no ${value})`]));
}

/** The visits as the service holds them, read from the sandbox directly (not through the daemon's client and its limits). */
async function visitsOf(e2e: E2eSync, ids: string[]): Promise<Map<string, Visit>> {
  const answer = await e2e.sandbox.post('project/site/visit/list', { filters: [['id', 'in', ids]], limit: 10_000 });
  return new Map((answer.body.data as Visit[]).map((visit) => [visit.id, visit]));
}
