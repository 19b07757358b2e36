import ExcelJS from 'exceljs';
import { SectionClient, UTC_TIMESTAMP, expectBadRequest } from './section-client';

/** Tracked e-mails and attachments, dashboards and widgets, billing and its Excel export, over HTTP. */
describe('sandbox sections: e-mail tracking, dashboards, billing', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  const ninetyDays = () => ({
    from: new Date(Date.now() - 91 * 86_400_000).toISOString(), to: new Date(Date.now() + 86_400_000).toISOString(),
  });

  it('lists tracked e-mails newest first with total, filters on date, and extends visit', async () => {
    const answer = await sandbox.post('project/emailtracking/email/list', { extend: ['visit'], limit: 2 });
    expect(answer.data).toMatchObject({ status: 'success', total: 5 });
    expect(answer.data.data).toHaveLength(2);
    const [first, second] = answer.data.data;
    expect(first.date >= second.date).toBe(true);
    expect(first).toMatchObject({
      id: expect.any(String), date: expect.stringMatching(UTC_TIMESTAMP), email_from: expect.any(String), email_to: 'sales@shop.example',
      subject: expect.any(String), body: expect.any(String), visit_id: expect.any(String), order_id: '', order: null,
      attachment_ids: expect.any(Array),
    });
    expect(first.visit).toMatchObject({ id: Number(first.visit_id), first_id: expect.any(Number), source: { system_name: expect.any(String) } });
    const cutoff = second.date;
    const recent = await sandbox.post('project/emailtracking/email/list', { filters: [['date', '>=', cutoff]], sort: ['date', 'asc'] });
    expect(recent.data.total).toBe(2);
    expect(recent.data.data.map((e: any) => e.id)).toEqual([second.id, first.id]);
    expect(recent.data.data[0].visit).toBeNull();
  });

  it('extends the order of an e-mail once the order exists', async () => {
    const withOrder = async () => (await sandbox.post('project/emailtracking/email/list', { extend: ['order'] }))
      .data.data.find((e: any) => e.order_id === 'email-demo-order');
    expect((await withOrder()).order).toBeNull();
    const uploaded = await sandbox.post('project/add-orders', [{ id: 'email-demo-order', status: '1', price: '700', date_create: '2024-04-01 12:00:00' }]);
    expect(uploaded.data.saved).toBe(1);
    expect((await withOrder()).order).toMatchObject({
      id: 'email-demo-order', revenue: 700, creation_date: '2024-04-01T09:00:00+0000', page: null,
      status: { id: 1, type: 'paid', name: expect.any(String) }, custom_fields: expect.objectContaining({ status_name: expect.any(String) }),
    });
  });

  it('downloads an attachment as a file named in Content-Disposition', async () => {
    const emails = (await sandbox.post('project/emailtracking/email/list', {})).data.data;
    const withFile = emails.find((e: any) => e.attachment_ids.length > 0);
    const file = await sandbox.download('get', `project/emailtracking/email/${withFile.id}/attachment/${withFile.attachment_ids[0]}`);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="price-request.csv"');
    expect(Buffer.from(file.data).toString('utf8')).toBe('sku;quantity\nA-100;2\nB-200;5\n');
    const missing = await sandbox.get(`project/emailtracking/email/${withFile.id}/attachment/999999`);
    expect(missing.status).toBe(404);
  });

  it('rejects an unknown filter field or extension, naming it', async () => {
    expectBadRequest(await sandbox.post('project/emailtracking/email/list', { filters: [['password', '=', 'x']] }), 'filters[0].field');
    expectBadRequest(await sandbox.post('project/emailtracking/email/list', { extend: ['client'] }), 'extend[0]');
  });

  it('lists dashboards and the widgets of each', async () => {
    const answer = await sandbox.get('project/dashboards');
    expect(answer.data.status).toBe('success');
    expect(answer.data.dashboards).toHaveLength(3);
    expect(answer.data.dashboards[0]).toEqual({ id: expect.any(String), title: expect.any(String) });
    const widgets = await sandbox.get(`project/dashboards/${answer.data.dashboards[0].id}/widgets`);
    expect(widgets.data.status).toBe('success');
    expect(widgets.data.widgets.length).toBeGreaterThan(0);
    expect(widgets.data.widgets[0]).toEqual({
      widgetId: expect.any(String),
      placementData: { height: expect.any(String), width: expect.any(String), order: 0 },
      outputSettings: {
        displayName: expect.any(String), systemName: expect.any(String), iconName: expect.any(String), color: expect.any(String),
        currency: 'RUB', feeds: expect.arrayContaining([{
          displayName: expect.any(String), description: expect.any(String), systemName: expect.any(String),
          valueType: expect.stringMatching(/^(percent|currency)$/), currency: 'RUB', colorLow: expect.any(String), colorHigh: expect.any(String),
        }]),
      },
    });
    expect((await sandbox.get('project/dashboards/999999/widgets')).status).toBe(404);
  });

  it('lists billing transactions of a period in date order', async () => {
    const answer = await sandbox.post('user/billing/transactions/list', { period: ninetyDays() });
    expect(answer.data.status).toBe('success');
    expect(answer.data.data.length).toBeGreaterThan(3);
    expect(answer.data.data[0]).toEqual({
      date: expect.stringMatching(UTC_TIMESTAMP), type: 'topup', system_name: null, display_name: null, project_id: null,
      sum: expect.any(Number), balance: expect.any(Number), virtual_balance: expect.any(Number),
    });
    const charges = await sandbox.post('user/billing/transactions/list', { period: ninetyDays(), filters: [['type', '=', 'charge']] });
    expect(charges.data.data.length).toBeGreaterThan(0);
    expect(charges.data.data.every((t: any) => t.type === 'charge')).toBe(true);
    const past = await sandbox.post('user/billing/transactions/list', { period: { from: '2001-01-01T00:00:00.000Z', to: '2001-12-31T00:00:00.000Z' } });
    expect(past.data.data).toEqual([]);
  });

  it('exports the same transactions as a real .xlsx', async () => {
    const period = ninetyDays();
    const listed = (await sandbox.post('user/billing/transactions/list', { period })).data.data;
    const file = await sandbox.download('post', 'user/billing/transactions/list/export/excel', { period });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="billing-transactions-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.data as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Transactions')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Date', 'Type', 'System name', 'Display name', 'Project', 'Sum', 'Balance', 'Virtual balance']);
    expect(sheet.rowCount).toBe(listed.length + 1);
    listed.forEach((transaction: any, index: number) => {
      const row = sheet.getRow(index + 2);
      expect([row.getCell(1).value, row.getCell(2).value, row.getCell(6).value, row.getCell(7).value])
        .toEqual([transaction.date, transaction.type, transaction.sum, transaction.balance]);
    });
  });

  it('requires the billing period, naming it', async () => {
    expectBadRequest(await sandbox.post('user/billing/transactions/list', {}), 'period');
    expectBadRequest(await sandbox.post('user/billing/transactions/list/export/excel', { period: { from: 'x', to: 'y' } }), 'period.from');
  });
});
