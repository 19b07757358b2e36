import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  BinaryFile, TrackerApiError, TrackerClient, formatPeriodBound, formatProxyLeadPeriod, formatTrackerDate,
} from '../../src/tracker';
import { ContractSandbox } from './contract-sandbox';
import { expectPlanExercised } from './contract-plan';
import { arrayOf, dateTime, expectEach, int, nullOr, num, numOrStr, obj, oneOf, str, timestamp } from './shapes';

const DAY = 86_400_000;

async function bytesOf(file: BinaryFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream as Readable) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The last 90 days up to tomorrow, as request period bounds. */
function recentPeriod() {
  return { from: formatPeriodBound(new Date(Date.now() - 90 * DAY)), to: formatPeriodBound(new Date(Date.now() + DAY)) };
}

describe('contract: e-mail tracking, leads, proxy leads, events, billing, dashboards', () => {
  let sandbox: ContractSandbox;
  let client: TrackerClient;

  beforeAll(async () => {
    sandbox = await ContractSandbox.start();
    client = sandbox.client();
  });
  afterAll(() => sandbox?.close());

  describe('e-mail tracking', () => {
    const EMAIL_SHAPE = {
      id: str, date: timestamp, email_from: str, email_to: str, subject: str, body: str, visit_id: str, order_id: str,
      attachment_ids: arrayOf(int),
    };

    it('emailtracking.list answers tracked e-mails; visit and order are null without extend', async () => {
      const answer = await client.emailtracking.list({ limit: 10, sort: ['date', 'desc'] });
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.data, { ...EMAIL_SHAPE, visit: null, order: null });
    });

    it('emailtracking.list with extend visit fills the visit object', async () => {
      const answer = await client.emailtracking.list({ limit: 10, extend: ['visit', 'order'] });
      const withVisit = answer.data.find((e) => e.visit !== null);
      expect(withVisit?.visit).toMatchObject({
        id: int, first_id: int, date: timestamp, referrer: str, host: str, landing_page: str, agent: str, ip: str,
        google_client_id: nullOr(str), metrics_client_id: nullOr(str),
        source: { system_name: str, display_name: str, icon_url: str, utm_source: nullOr(str), openstat: nullOr(str), referrer: str },
      });
      expect(answer.data.every((e) => e.order === null || (Number.isInteger(e.order.id) && typeof e.order.status === 'object')))
        .toBe(true);
    });

    it('emailtracking.attachment answers the file bytes with its original name', async () => {
      const { data } = await client.emailtracking.list({ limit: 50 });
      const email = data.find((e) => e.attachment_ids.length > 0);
      expect(email).toBeDefined();
      const file = await client.emailtracking.attachment(email!.id, email!.attachment_ids[0]);
      expect(file.fileName).toMatch(/\S+\.\w+$/);
      expect(file.contentType).not.toMatch(/json/);
      expect((await bytesOf(file)).length).toBeGreaterThan(0);
    });
  });

  describe('leads without a CRM', () => {
    let leadId: string;
    const LEAD_SHAPE = {
      id: str, title: str, creation_date: timestamp, paid_date: str, status: str, price: numOrStr, name: str, phone: str,
      email: str, source: str, text: str,
    };

    it('leads.statuses answers the ids 0, 1, 2 with their types', async () => {
      const answer = await client.leads.statuses();
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.data, { id: str, name: str, type: oneOf('progress', 'paid', 'canceled') });
      expect(answer.data).toEqual(expect.arrayContaining([
        expect.objectContaining({ id: '0', type: 'progress' }), expect.objectContaining({ id: '1', type: 'paid' }),
        expect.objectContaining({ id: '2', type: 'canceled' }),
      ]));
    });

    it('leads.create answers lead_id', async () => {
      const answer = await client.leads.create({
        creation_date: formatTrackerDate(new Date(Date.now() - 3_600_000)), name: 'Petr Contract', status: '0', title: 'Contract lead',
        email: 'petr@example.com', phone: '+79995554433', price: 5000,
      });
      expect(answer).toMatchObject({ status: 'success', lead_id: str });
      leadId = answer.lead_id;
    });

    it('leads.create without a required field is 400 naming it', async () => {
      const error = await client.leads.create({ creation_date: formatTrackerDate(new Date()), name: 'No title', status: '0' } as never)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ httpStatus: 400, description: expect.stringContaining('title') });
    });

    it('leads.update changes only the fields sent; leads.list shows the result', async () => {
      await expect(client.leads.update({ id: leadId, status: '1', price: 6000, text: 'paid by card' }))
        .resolves.toMatchObject({ status: 'success' });
      const answer = await client.leads.list({
        period: recentPeriod(), filters: [{ field: 'id', operator: '=', value: leadId }],
        sort_field: 'creation_date', sort_order: 'desc', limit: 10, offset: 0,
      });
      expect(answer).toMatchObject({ status: 'success', total: 1 });
      expect(answer.leads).toHaveLength(1);
      expect(answer.leads[0]).toMatchObject({
        ...LEAD_SHAPE, id: leadId, status: '1', name: 'Petr Contract', title: 'Contract lead', email: 'petr@example.com',
        text: 'paid by card',
      });
      expect(Number(answer.leads[0].price)).toBe(6000);
    });

    it('leads.list without filters answers the seeded leads sorted by price', async () => {
      const answer = await client.leads.list({ period: recentPeriod(), sort_field: 'price', sort_order: 'asc', limit: 100 });
      expectEach(answer.leads, LEAD_SHAPE);
      const prices = answer.leads.map((l) => Number(l.price));
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
    });
  });

  describe('proxy leads', () => {
    const PROXY_LEAD_SHAPE = {
      id: str, title: str, text: str, name: str, phone: str, email: str, tracker: str, order_id: str,
      creation_date: dateTime,
    };

    it('proxyLeads.list answers ProxyLeads of the period; proxyLeads.get answers one of them', async () => {
      const period = formatProxyLeadPeriod(new Date(Date.now() - 90 * DAY), new Date(Date.now() + DAY));
      const answer = await client.proxyLeads.list(period);
      expect(answer).toMatchObject({ status: 'success' });
      expectEach(answer.ProxyLeads, PROXY_LEAD_SHAPE);

      const one = await client.proxyLeads.get(answer.ProxyLeads[0].id);
      expect(one).toMatchObject({ status: 'success' });
      const record = one.ProxyLead ?? one.ProxyLeads?.[0];
      expect(record).toMatchObject({ ...PROXY_LEAD_SHAPE, id: answer.ProxyLeads[0].id });
    });
  });

  describe('custom events', () => {
    let visitId: string;
    let archivedId: string;
    const since = new Date(Date.now() - 60_000);

    beforeAll(async () => {
      const visits = await client.visits.list({ limit: 1 });
      visitId = (Array.isArray(visits.data) ? visits.data[0] : visits.data).id;
    });

    it('events.add answers the definitions with ids', async () => {
      const answer = await client.events.add([
        { display_name: 'Contract signup', type: 'js', parameter: 'contract_signup' },
        { display_name: 'Contract thanks', type: 'url', parameter: 'https://shop.example.com/thanks' },
      ]);
      expect(answer).toMatchObject({ status: 'success' });
      expect(answer.events).toEqual([
        { id: str, display_name: 'Contract signup', type: 'js', parameter: 'contract_signup' },
        { id: str, display_name: 'Contract thanks', type: 'url', parameter: 'https://shop.example.com/thanks' },
      ]);
      archivedId = answer.events[1].id;
    });

    it('events.send and events.bulkSend record triggers that events.log answers', async () => {
      await expect(client.events.send({ name: 'Contract signup', visit: visitId, data: { plan: 'pro' } }))
        .resolves.toMatchObject({ status: 'success' });
      await expect(client.events.bulkSend([{ name: 'Contract signup', visit: visitId }, { name: 'Contract thanks', data: { n: 2 } }]))
        .resolves.toMatchObject({ status: 'success' });

      const log = await client.events.log({
        name: 'Contract signup', date_from: formatTrackerDate(since), date_to: formatTrackerDate(new Date(Date.now() + 60_000)),
      });
      expect(log).toMatchObject({ status: 'success' });
      expectEach(log.items, {
        id: str, display_name: 'Contract signup', parameter: 'contract_signup', type: 'js', event_date: timestamp,
        data: nullOr(obj), visit_id: nullOr(str),
      });
      expect(log.items).toHaveLength(2);
      expect(log.items.find((i) => i.data !== null)).toMatchObject({ data: { plan: 'pro' }, visit_id: visitId });
    });

    it('events.archive archives a definition; sending it afterwards fails', async () => {
      const answer = await client.events.archive(Number(archivedId), [
        { display_name: 'Contract thanks', type: 'url', parameter: 'https://shop.example.com/thanks' },
      ]);
      expect(answer).toMatchObject({ status: 'success', events: expect.anything() });
      await expect(client.events.send({ name: 'Contract thanks' })).rejects.toBeInstanceOf(TrackerApiError);
    });
  });

  describe('billing', () => {
    it('billing.transactions answers Billing transactions of the period', async () => {
      const answer = await client.billing.transactions({ period: recentPeriod() });
      expect(answer).toMatchObject({ status: 'success' });
      expectEach(answer.data, {
        date: timestamp, type: oneOf('charge', 'topup'), system_name: nullOr(str), display_name: nullOr(str),
        project_id: nullOr(int), sum: num, balance: num, virtual_balance: num,
      });
    });

    it('billing.exportExcel answers a real .xlsx holding the same transactions', async () => {
      const period = recentPeriod();
      const { data } = await client.billing.transactions({ period });
      const file = await client.billing.exportExcel({ period });
      expect(file.fileName).toMatch(/\.xlsx$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await bytesOf(file)) as never);
      const sheet = workbook.worksheets[0];
      expect(sheet).toBeDefined();
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      expect(rows.length).toBeGreaterThanOrEqual(data.length + 1);
      const first = data[0];
      const match = rows.find((cells) => cells.some((c) => Number(c) === first.sum) && cells.some((c) => c === first.type));
      expect(match).toBeDefined();
    });
  });

  describe('dashboards', () => {
    it('dashboards.list answers dashboards; dashboards.widgets answers their widgets', async () => {
      const list = await client.dashboards.list();
      expect(list).toMatchObject({ status: 'success' });
      expectEach(list.dashboards, { id: str, title: str });

      const answer = await client.dashboards.widgets(list.dashboards[0].id);
      expect(answer).toMatchObject({ status: 'success' });
      expectEach(answer.widgets, {
        widgetId: str,
        placementData: { height: str, width: str, order: int },
        outputSettings: {
          displayName: str, systemName: str, iconName: str, color: str, currency: str,
          feeds: arrayOf({
            asymmetricMatch: (f: any) => typeof f?.displayName === 'string' && typeof f?.systemName === 'string'
              && ['percent', 'currency'].includes(f?.valueType) && typeof f?.colorLow === 'string',
          }),
        },
      });
    });
  });

  describe('coverage', () => {
    it('exercised every operation of this file\'s share of TRACKER_OPERATIONS', () => {
      expectPlanExercised('leads-events-files', sandbox.exercised);
    });
  });
});
