import { PROXY_LEAD_KIND, ProxyLeadDoc } from '../../src/sandbox/sections/proxyleads/proxy-lead.types';
import { SandboxDocumentStore } from '../../src/sandbox/storage/document-store';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import type { LeadFixture } from '../fixtures/crm/crm-leads';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { E2eSync } from './e2e-harness';

/**
 * A delivered lead has one record, its `lead_delivery` row (issue 40): no record_state fingerprint of stream
 * `leads` is written, and the next pass learns "already delivered" from the row (the flow's knownDone).
 */
describe('e2e: a delivered lead is stored once', () => {
  let e2e: E2eSync;
  let server: CrmServer;
  let crm: LeadFixture;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    const fixture = pipedrive.createCrm();
    crm = fixture.leads;
    server = await startCrmServer(fixture.handler);
    e2e = await E2eSync.start({
      connectionId: 'leads-one-record', connector: 'generic-crm',
      settings: { ...pipedrive.settings(server.url), lead_delivery: { lead_id_field: 'ID заявки', since: today, duplicates: 'create' } },
    });
    await e2e.sandbox.app.get(SandboxDocumentStore).insert<ProxyLeadDoc>(e2e.sandbox.projectId, PROXY_LEAD_KIND, {
      title: 'Once', text: '', name: 'Клиент', phone: '+7 900 000-00-11', email: '', tracker: '1000005', creation_date: `${today} 00:00:01`, order_id: '',
    });
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('writes no record_state row of stream leads, and the next pass counts the lead already_delivered from its lead_delivery row', async () => {
    const first = await e2e.leadsPass();
    expect(first.flowCounters).toMatchObject({ created: 1, rejected: 0 });
    const rows = await e2e.store.query(`SELECT lead_id, state FROM lead_delivery WHERE connection_id = 'leads-one-record'`);
    expect(rows).toEqual([expect.objectContaining({ state: 'created' })]);
    expect(await e2e.store.query(`SELECT external_id FROM record_state WHERE connection_id = 'leads-one-record' AND stream = 'leads'`)).toEqual([]);

    const second = await e2e.leadsPass();
    const seeded = first.flowCounters!.already_delivered; // the demo seed's leads with an order_id
    expect(second.flowCounters).toMatchObject({ created: 0, attached: 0, rejected: 0, already_delivered: seeded + 1 });
    expect(crm.createdDeals().map((d) => d.title)).toEqual(['Once']);
  });
});
