import type { RunSummary } from '../../src/engine/engine-types';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as hubspot from '../fixtures/crm/hubspot';
import { E2eSync } from './e2e-harness';
import { allClients, orderDetails } from './sandbox-readback';

/**
 * HubSpot contacts whose `date_of_birth` is written three ways: as HubSpot writes a date property (epoch
 * milliseconds of its midnight UTC: 710208000000 is 1992-07-04), typed by hand ("8 февраля 1992"), and as
 * something no reading makes a date ("весной 92-го"). Each contact is a client of the service: the first two with
 * their birth dates, the third without one, counted as a field left out (skipped_fields_by_invalid_format) and
 * warned naming the connection, the contact and the field. The deals naming them are sent with client ids the
 * service has. The HubSpot fixture on loopback (held to HubSpot's OpenAPI documents), the engine, the sandbox.
 */
describe('e2e: hubspot contacts with an unreadable or hand-written date_of_birth', () => {
  const contact = (id: string, firstname: string, email: string, dateOfBirth: string): hubspot.HubspotObject => ({
    id,
    properties: {
      firstname, lastname: null, email, phone: null, mobilephone: null, company: null, date_of_birth: dateOfBirth,
      createdate: '2024-01-10T09:00:00.000Z', lastmodifieddate: `2024-01-15T1${id.slice(-1)}:00:00.000Z`,
    },
  });
  let server: CrmServer;
  let e2e: E2eSync;
  let run: RunSummary;

  beforeAll(async () => {
    const crm = hubspot.createCrm({
      contacts: [
        contact('501', 'Анастасия', 'nastya@mail.ru', '710208000000'),
        contact('502', 'Lee', 'lee@example.com', '8 февраля 1992'),
        contact('503', 'Anon', 'anon@example.com', 'весной 92-го'),
      ],
    });
    server = await startCrmServer(crm.handler);
    e2e = await E2eSync.start({ connectionId: 'hs-birth', connector: 'generic-crm', settings: hubspot.settings(server.url) });
    await e2e.registerVisits(['9000001', '9000003']);
    run = await e2e.run();
  });
  afterAll(async () => {
    await e2e?.stop();
    await server?.close();
  });

  it('every contact is sent: the epoch-ms and the hand-written birth dates read, the unreadable one left out', async () => {
    expect({ status: run.status, error: run.error, clients: run.streams.clients }).toEqual({
      status: 'succeeded', error: null,
      clients: {
        read: 3, unchanged: 0, sent: 3, rejected: 0, sent_without_visit: 0, skipped_fields_by_invalid_format: 1,
        notices: [expect.stringMatching(/^clients: 1 field that could not be read left out, the records sent without them \(skipped_fields_by_invalid_format\): birth_date of 503 \("весной 92-го" is not a valid date/)],
      },
    });
    expect(run.rejected.filter((r) => r.stream === 'clients')).toEqual([]);
    const clients = (await allClients(e2e.tracker)).map((c) => ({ id: c.external_id, birth_date: c.birth_date })).sort((a, b) => a.id.localeCompare(b.id));
    expect(clients).toEqual([
      { id: '501', birth_date: '1992-07-04' },
      { id: '502', birth_date: '1992-02-08' },
      { id: '503', birth_date: null },
    ]);
  });

  it('the field left out is warned naming the connection, the contact, where it was read and the field', () => {
    expect(e2e.log()).toMatch(/connection hs-birth: clients record 503 \(clients page \d+ item \d+\): field birth_date left out, the record is sent without it: "весной 92-го" is not a valid date/);
  });

  it("the deals naming these contacts are orders linked to clients the service has", async () => {
    const details = await orderDetails(e2e.tracker, ['801', '803']);
    const linked = (id: string) => ({ order: id, client: details.get(id)?.order.client_external_id, name: details.get(id)?.order.client_name, emails: details.get(id)?.order.client_emails });
    expect(['801', '803'].map(linked)).toEqual([
      { order: '801', client: '501', name: 'Анастасия', emails: ['nastya@mail.ru'] },
      { order: '803', client: '502', name: 'Lee', emails: ['lee@example.com'] },
    ]);
  });

  it('a next run that reads the contact again, unchanged, sends nothing and warns nothing again', async () => {
    const before = e2e.logger.lines.length;
    const second = await e2e.run();
    expect({ status: second.status, sent: second.streams.clients?.sent, left: second.streams.clients?.skipped_fields_by_invalid_format }).toEqual({ status: 'succeeded', sent: 0, left: undefined });
    expect(second.streams.clients?.unchanged).toBeGreaterThan(0);
    expect(e2e.logger.lines.slice(before).join('\n')).not.toMatch(/left out/);
  });
});
