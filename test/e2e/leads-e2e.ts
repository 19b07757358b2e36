import type { RunSummary } from '../../src/engine/engine-types';
import { LeadDeliveryEntity } from '../../src/store/entities/lead-delivery.entity';
import { OpenRejectionEntity } from '../../src/store/entities/open-rejection.entity';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture, LeadFixtureOptions } from '../fixtures/crm/crm-leads';
import { E2eSync } from './e2e-harness';
import { allOrders } from './sandbox-readback';

/** A preset's lead-delivery case: its fixture CRM, the settings a user writes, where values land. */
export interface LeadsCase {
  preset: string;
  fixture: {
    createCrm(options: { leads?: LeadFixtureOptions }): { handler: Parameters<typeof startCrmServer>[0]; leads: LeadFixture };
    settings(url: string): Record<string, unknown>;
  };
  /** settings.lead_delivery as a user writes it (pipeline/stage/responsible by name or id, fields by name) */
  leadDelivery: Record<string, unknown>;
  /** what the CRM holds for them: pipeline and stage ids, the owner id, the keys of lead_id_field, visit_field and the comment field */
  expect: { pipeline: string; stage: string; owner: string | null; leadIdKey: string; visitKey: string; commentKey: string };
  /** the service's deals stream id of a created deal (as the sync sends it) */
  orderId?(dealId: string): string;
}

interface Context {
  server: CrmServer;
  crm: LeadFixture;
  e2e: E2eSync;
  ids: Record<string, string>;
  first: RunSummary;
}

const COMMENT_TEMPLATE = '{{text}} ({{name}})';

/**
 * Lead delivery end to end for one preset: the sandbox's proxy leads (made through its sandbox-only
 * POST /project/proxy-leads/add), the fixture CRM on loopback, a real engine with a SQLite store. Passes go as
 * `deliver-leads` starts them; the sync that follows sends the new deals to the service with their visits.
 */
export function describeLeads(c: LeadsCase): void {
  describe(`e2e: proxy leads into ${c.preset}`, () => {
    const ctx = {} as Context;
    const pass = (): Promise<RunSummary> => ctx.e2e.leadsPass();
    const addLead = async (lead: Record<string, string>): Promise<string> => {
      const answer = await ctx.e2e.sandbox.post('project/proxy-leads/add', lead);
      if (answer.status !== 200 || answer.body.status !== 'success') throw new Error(`proxy-leads/add answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return String(answer.body.id);
    };
    const dealOf = (leadId: string) => ctx.crm.createdDeals().find((d) => String(d.fields[c.expect.leadIdKey]) === leadId);

    beforeAll(async () => {
      const crm = c.fixture.createCrm({ leads: { refuseTitle: 'REFUSE-ME' } });
      ctx.crm = crm.leads;
      ctx.server = await startCrmServer(crm.handler);
      ctx.e2e = await E2eSync.start({
        connectionId: `leads-${c.preset}`, connector: 'generic-crm',
        settings: { ...c.fixture.settings(ctx.server.url), lead_delivery: c.leadDelivery },
      });
      // a manager's contact with an open deal in the pipeline, made before the leads came
      const manager = ctx.crm.addContactWithOpenDeal({ name: 'Ольга Петрова', phone: '+7 (903) 555-44-33', email: 'olga@example.ru' }, c.expect.pipeline, c.expect.stage);
      ctx.ids = {
        managerDeal: manager.dealId,
        a: await addLead({ title: 'Заявка с сайта', name: 'Иван', phone: '+7 (912) 000-11-22', email: 'Ivan@Example.ru', text: 'Нужен диван', tracker: '1000005' }),
        // the same person again, the number written another way: one contact, one deal
        a2: await addLead({ title: 'Обратный звонок', name: 'Иван', phone: '89120001122', email: '', text: 'Перезвоните', tracker: '1000006' }),
        // the manager's contact (e-mail in another case): a note on the open deal instead of a new one
        b: await addLead({ title: 'Вопрос', name: 'Ольга', phone: '', email: 'OLGA@example.RU', text: 'Есть доставка?', tracker: '1000007' }),
        c: await addLead({ title: 'Заказ', name: 'Пётр', phone: '8 (495) 123-45-67', email: '', text: 'Кухня', tracker: '1000008' }),
      };
      ctx.first = await pass();
    });
    afterAll(async () => {
      await ctx.e2e?.stop();
      await ctx.server?.close();
    });

    it('a pass makes a deal of each new contact\'s lead and notes for the rest, counted by the flow\'s counters', () => {
      expect({ status: ctx.first.status, error: ctx.first.error, log: ctx.first.error ? ctx.e2e.log() : '' }).toMatchObject({ status: 'succeeded', error: null });
      expect({ direction: ctx.first.direction, flow: ctx.first.flow, mode: ctx.first.mode }).toEqual({ direction: 'outbound', flow: 'leads', mode: 'leads' });
      expect(ctx.first.flowCounters).toEqual({ found: 4, created: 2, attached: 2, already_delivered: 0, rejected: 0 });
      expect(ctx.crm.createdDeals().map((d) => d.fields[c.expect.leadIdKey]).map(String)).toEqual([ctx.ids.a, ctx.ids.c]);
    });

    it('the new deals carry the visit, the pipeline, stage and responsible, the title and field templates', () => {
      const deal = dealOf(ctx.ids.a)!;
      expect(deal).toMatchObject({ title: 'Заявка с сайта: Иван', pipeline: c.expect.pipeline, stage: c.expect.stage, ...(c.expect.owner ? { owner: c.expect.owner } : {}) });
      expect(String(deal.fields[c.expect.visitKey])).toBe('1000005');
      expect(String(deal.fields[c.expect.commentKey])).toBe('Нужен диван (Иван)');
      expect(deal.contactId).not.toBeNull();
      const contact = ctx.crm.createdContacts().find((p) => p.id === deal.contactId)!;
      expect(contact.phones.map((p) => p.replace(/\D/g, ''))).toEqual(['79120001122']);
      expect(String(dealOf(ctx.ids.c)!.fields[c.expect.visitKey])).toBe('1000008');
    });

    it('a repeated phone in another format attaches: a note on that contact\'s deal, one contact', () => {
      const deal = dealOf(ctx.ids.a)!;
      expect(ctx.crm.notesOf(deal.id)).toEqual([expect.stringContaining('Обратный звонок')]);
      expect(ctx.crm.notesOf(deal.id)[0]).toContain('1000006');
      expect(ctx.crm.createdContacts().filter((p) => p.phones.some((x) => x.replace(/\D/g, '') === '79120001122'))).toHaveLength(1);
    });

    it('a contact with an open deal gets a note on it (title, text, source, visit), not a new deal', () => {
      const [note] = ctx.crm.notesOf(ctx.ids.managerDeal);
      expect(note).toContain('Вопрос');
      expect(note).toContain('Есть доставка?');
      expect(note).toContain(`proxy lead ${ctx.ids.b}`);
      expect(note).toContain('Visit: 1000007');
    });

    it('a second pass creates nothing', async () => {
      const from = ctx.server.requests.length;
      const second = await pass();
      expect(second.flowCounters).toEqual({ found: 4, created: 0, attached: 0, already_delivered: 4, rejected: 0 });
      expect(ctx.server.requests.slice(from).filter((r) => r.method !== 'GET' && !/search/.test(r.path))).toEqual([]);
    });

    it('the same number in a third format on a later pass attaches to the deal the first lead made', async () => {
      const later = await addLead({ title: 'Ещё вопрос', name: 'Иван', phone: '79120001122', email: '', text: '', tracker: '1000009' });
      const third = await pass();
      expect(third.flowCounters).toMatchObject({ created: 0, attached: 1, rejected: 0 });
      expect(ctx.crm.notesOf(dealOf(ctx.ids.a)!.id).some((n) => n.includes('Ещё вопрос') && n.includes(`proxy lead ${later}`))).toBe(true);
    });

    it('a lead the CRM refuses is a rejected record with the CRM\'s reason, open until delivered; the pass goes on', async () => {
      const refused = await addLead({ title: 'REFUSE-ME', name: 'Анна', phone: '+7 916 111-22-33', email: '', text: '', tracker: '1000010' });
      const ok = await addLead({ title: 'Нормальная', name: 'Борис', phone: '+7 916 999-88-77', email: '', text: '', tracker: '1000011' });
      const run = await pass();
      expect(run.flowCounters).toMatchObject({ created: 1, rejected: 1 });
      expect(run.rejected.map((r) => ({ stream: r.stream, id: r.external_id }))).toEqual([{ stream: 'leads', id: refused }]);
      // the CRM's own reason, after ours
      expect(run.rejected[0].reason).toMatch(/refused the deal: .*(REFUSE-ME|not allowed)/);
      const open = await ctx.e2e.store.getRepository(OpenRejectionEntity).findBy({ connection_id: ctx.e2e.options.connectionId, stream: 'leads' });
      expect(open.map((o) => o.external_id)).toEqual([refused]);
      expect(dealOf(ok)).toBeDefined();
      // still refused on the next pass: still open, never delivered
      const again = await pass();
      expect(again.flowCounters).toMatchObject({ created: 0, rejected: 1 });
    });

    it('every delivered lead has exactly one deal or note, kept in the store', async () => {
      const rows = await ctx.e2e.store.getRepository(LeadDeliveryEntity).findBy({ connection_id: ctx.e2e.options.connectionId });
      const delivered = rows.filter((r) => r.state !== 'pending');
      expect(rows.filter((r) => r.state === 'pending')).toEqual([]);
      const created = delivered.filter((r) => r.state === 'created').map((r) => r.deal_id);
      expect(new Set(created).size).toBe(created.length);
      expect(ctx.crm.createdDeals().map((d) => d.id).sort()).toEqual([...created].sort());
    });

    it('the next sync sends the new deals with their visit: the service\'s order list shows them', async () => {
      const sync = await ctx.e2e.run();
      expect({ status: sync.status, error: sync.error }).toEqual({ status: 'succeeded', error: null });
      const orders = await allOrders(ctx.e2e.tracker);
      for (const deal of ctx.crm.createdDeals()) {
        const orderId = c.orderId ? c.orderId(deal.id) : deal.id;
        const order = orders.find((o) => String(o.id) === orderId);
        expect({ deal: deal.id, visit: order?.visit?.id === undefined ? undefined : String(order.visit.id) }).toEqual({ deal: deal.id, visit: String(deal.fields[c.expect.visitKey]) });
      }
    });
  });
}

export { COMMENT_TEMPLATE };
