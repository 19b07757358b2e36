import type { RunSummary } from '../../src/engine/engine-types';
import { LeadDeliveryEntity } from '../../src/store/entities/lead-delivery.entity';
import * as amocrm from '../fixtures/crm/amocrm';
import * as bitrix24 from '../fixtures/crm/bitrix24';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture, LeadFixtureOptions } from '../fixtures/crm/crm-leads';
import * as hubspot from '../fixtures/crm/hubspot';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { E2eSync } from './e2e-harness';

/**
 * A note whose outcome is unknown (its answer lost after the CRM took it, or a 500 for one it never took) is looked
 * up on its deal before it is sent again, for every preset: found, the lead is delivered and nothing is sent; not
 * found, it is sent again, once. The look-up answering 503 fails the pass and leaves the lead pending for the next.
 * Fixture CRMs on loopback (HubSpot's and Pipedrive's held to their OpenAPI documents), the sandbox, SQLite.
 */
const presets = [
  { preset: 'amocrm', fixture: amocrm, pipeline: '3001', stage: '55501', leadDelivery: { pipeline: 'Продажи', lead_id_field: 'ID заявки' } },
  { preset: 'bitrix24', fixture: bitrix24, pipeline: '1', stage: 'C1:NEW', leadDelivery: { pipeline: 'Повторные', lead_id_field: 'ID заявки' } },
  { preset: 'pipedrive', fixture: pipedrive, pipeline: '2', stage: '6', leadDelivery: { pipeline: 'Продажи', lead_id_field: 'ID заявки' } },
  { preset: 'hubspot', fixture: hubspot, pipeline: '7755001', stage: '7755101', leadDelivery: { pipeline: 'Продажи', lead_id_field: 'ID заявки' } },
];

describe.each(presets)('lead delivery into $preset: a note whose outcome is unknown', ({ preset, fixture, pipeline, stage, leadDelivery }) => {
  // note creates 1 and 4 are taken and their answers lost; 2 and 5 are answered 500 and never land
  const faults: LeadFixtureOptions = { loseNoteAnswers: [1, 4], failNoteCreates: [2, 5], noteLookupDown: false };
  let server: CrmServer;
  let crm: LeadFixture;
  let e2e: E2eSync;
  let dealId: string;
  let seq = 0;

  const pass = (): Promise<RunSummary> => e2e.leadsPass();
  /** a lead of the contact with the open deal: it goes as a note on that deal */
  const addLead = async (title: string): Promise<string> => {
    seq += 1;
    const answer = await e2e.sandbox.post('project/proxy-leads/add', { title, name: 'Ольга', phone: '', email: 'olga@example.ru', text: `Вопрос ${seq}`, tracker: String(1000100 + seq) });
    if (answer.status !== 200 || answer.body.status !== 'success') throw new Error(`proxy-leads/add answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return String(answer.body.id);
  };
  const notesOf = (leadId: string) => crm.notesOf(dealId).filter((n) => n.includes(`proxy lead ${leadId} `) || n.includes(`proxy lead ${leadId},`));
  const rowOf = async (leadId: string) => e2e.store.getRepository(LeadDeliveryEntity).findOneBy({ connection_id: e2e.options.connectionId, lead_id: leadId });
  const noteRequests = (from: number) => server.requests.slice(from).filter((r) => /notes$|timeline\.comment\.add/.test(r.path) && r.method === 'POST').length;

  beforeAll(async () => {
    const made = fixture.createCrm({ leads: faults });
    crm = made.leads;
    server = await startCrmServer(made.handler);
    e2e = await E2eSync.start({ connectionId: `uncertain-note-${preset}`, connector: 'generic-crm', settings: { ...fixture.settings(server.url), retry: { base_ms: 5 }, lead_delivery: { ...leadDelivery, settle_seconds: 0 } } });
    dealId = crm.addContactWithOpenDeal({ name: 'Ольга Петрова', email: 'olga@example.ru' }, pipeline, stage).dealId;
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('taken, its answer lost, the look-up down: the pass fails and the lead stays pending; the next pass finds the note and sends nothing', async () => {
    const lead = await addLead('Потерянный ответ');
    faults.noteLookupDown = true;
    const first = await pass();
    expect({ status: first.status, error: first.error }).toMatchObject({ status: 'failed', error: expect.stringMatching(/503/) });
    expect(await rowOf(lead)).toMatchObject({ state: 'pending', attempt: 'note', deal_id: dealId });
    expect(notesOf(lead)).toHaveLength(1);

    faults.noteLookupDown = false;
    const from = server.requests.length;
    const second = await pass();
    expect({ status: second.status, error: second.error, log: second.error ? e2e.log() : '' }).toMatchObject({ status: 'succeeded', error: null });
    expect(second.flowCounters).toMatchObject({ found: 1, created: 0, attached: 1, rejected: 0 });
    expect(noteRequests(from)).toBe(0);
    expect(notesOf(lead)).toHaveLength(1);
    expect(crm.noteCreates()).toBe(1);
    expect(await rowOf(lead)).toMatchObject({ state: 'attached', deal_id: dealId, note_id: expect.stringMatching(/^\d+$/) });
  });

  it('never taken (a 500), the look-up down: the next pass does not find it and sends it again, once', async () => {
    const lead = await addLead('Не дошла');
    faults.noteLookupDown = true;
    const first = await pass();
    expect(first.status).toBe('failed');
    expect(await rowOf(lead)).toMatchObject({ state: 'pending', attempt: 'note' });
    expect(notesOf(lead)).toEqual([]);

    faults.noteLookupDown = false;
    const from = server.requests.length;
    const second = await pass();
    expect({ status: second.status, error: second.error }).toEqual({ status: 'succeeded', error: null });
    expect(second.flowCounters).toMatchObject({ attached: 1, already_delivered: 1, rejected: 0 });
    expect(noteRequests(from)).toBe(1);
    expect(notesOf(lead)).toHaveLength(1);
    expect(crm.noteCreates()).toBe(3);
  });

  it('within one pass: a lost answer is found by the look-up, a 500 is sent again once', async () => {
    const lost = await addLead('Ответ потерян в проходе');
    const run = await pass();
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.flowCounters).toMatchObject({ attached: 1, rejected: 0 });
    expect(notesOf(lost)).toHaveLength(1);
    expect(crm.noteCreates()).toBe(4);

    const failed = await addLead('Ошибка 500 в проходе');
    const again = await pass();
    expect({ status: again.status, error: again.error }).toEqual({ status: 'succeeded', error: null });
    expect(again.flowCounters).toMatchObject({ attached: 1, rejected: 0 });
    expect(notesOf(failed)).toHaveLength(1);
    expect(crm.noteCreates()).toBe(6);
  });

  it('in the end every lead has exactly one note on the deal, and a further pass sends nothing', async () => {
    const from = server.requests.length;
    const last = await pass();
    expect(last.flowCounters).toMatchObject({ found: 4, created: 0, attached: 0, already_delivered: 4 });
    expect(noteRequests(from)).toBe(0);
    const rows = await e2e.store.getRepository(LeadDeliveryEntity).findBy({ connection_id: e2e.options.connectionId });
    expect(rows.map((r) => r.state)).toEqual(['attached', 'attached', 'attached', 'attached']);
    for (const row of rows) expect(notesOf(row.lead_id)).toHaveLength(1);
    expect(crm.notesOf(dealId)).toHaveLength(4);
    expect(crm.createdDeals()).toEqual([]);
  });
});
