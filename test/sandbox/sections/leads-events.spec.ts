import { SectionClient, UTC_TIMESTAMP, expectBadRequest } from './section-client';

/** Leads without a CRM, proxy leads and custom events over HTTP. */
describe('sandbox sections: leads, proxy leads, custom events', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  const april = { from: '2024-04-01T00:00:00.000Z', to: '2024-04-30T23:59:59.999Z' };
  const lead = { creation_date: '2024-04-05 12:00:00', name: 'Пётр', status: 0, title: 'Заявка с сайта', price: 1000, phone: '+79990000000' };

  it('lists the three lead statuses', async () => {
    const answer = await sandbox.post('project/leads/status/list');
    expect(answer.data).toEqual({
      status: 'success', total: 3,
      data: [{ id: '0', name: expect.any(String), type: 'progress' }, { id: '1', name: expect.any(String), type: 'paid' }, { id: '2', name: expect.any(String), type: 'canceled' }],
    });
  });

  it('creates leads, lists them in the period with filters, sort and paging, and updates only given fields', async () => {
    const first = await sandbox.post('project/leads/lead/create', lead);
    expect(first.data).toEqual({ status: 'success', lead_id: expect.any(String) });
    await sandbox.post('project/leads/lead/create', { ...lead, title: 'Вторая', status: '1', price: 3000, creation_date: '2024-04-06 12:00:00' });
    await sandbox.post('project/leads/lead/create', { ...lead, title: 'Майская', creation_date: '2024-05-06 12:00:00' });
    const listed = await sandbox.post('project/leads/lead/list', { period: april, sort_field: 'price', sort_order: 'desc' });
    expect(listed.data).toMatchObject({ status: 'success', total: 2 });
    expect(listed.data.leads.map((l: any) => l.title)).toEqual(['Вторая', 'Заявка с сайта']);
    expect(listed.data.leads[1]).toEqual({
      id: first.data.lead_id, title: 'Заявка с сайта', creation_date: '2024-04-05T09:00:00+0000', paid_date: '', status: '0',
      price: 1000, name: 'Пётр', phone: '+79990000000', email: '', source: '', text: '',
    });
    const filtered = await sandbox.post('project/leads/lead/list', {
      period: april, sort_field: 'id', filters: [{ field: 'status', operator: 'in', value: ['1', '2'] }], limit: 10, offset: 0,
    });
    expect(filtered.data.leads.map((l: any) => l.title)).toEqual(['Вторая']);
    expect((await sandbox.post('project/leads/lead/list', { period: april, sort_field: 'price', limit: 1, offset: 1 })).data.leads.map((l: any) => l.price)).toEqual([3000]);
    expect((await sandbox.post('project/leads/lead/update', { id: first.data.lead_id, text: 'Перезвонить', status: 2 })).data).toEqual({ status: 'success' });
    const after = (await sandbox.post('project/leads/lead/list', { period: april, sort_field: 'id' })).data.leads.find((l: any) => l.id === first.data.lead_id);
    expect(after).toMatchObject({ text: 'Перезвонить', status: '2', title: 'Заявка с сайта', price: 1000, phone: '+79990000000' });
  });

  it('validates lead requests, naming the field', async () => {
    expectBadRequest(await sandbox.post('project/leads/lead/create', { ...lead, title: undefined }), 'title');
    expectBadRequest(await sandbox.post('project/leads/lead/create', { ...lead, status: 5 }), 'status');
    expectBadRequest(await sandbox.post('project/leads/lead/create', { ...lead, price: '10' }), 'price');
    expectBadRequest(await sandbox.post('project/leads/lead/list', { sort_field: 'id' }), 'period');
    expectBadRequest(await sandbox.post('project/leads/lead/list', { period: april }), 'sort_field');
    expectBadRequest(await sandbox.post('project/leads/lead/list', { period: april, sort_field: 'id', filters: [{ field: 'text', operator: '=', value: 'x' }] }), 'filters[0].field');
    expectBadRequest(await sandbox.post('project/leads/lead/update', { title: 'x' }), 'id');
    expect((await sandbox.post('project/leads/lead/update', { id: '999999', title: 'x' })).status).toBe(404);
  });

  it('reads proxy leads of a period and one by id', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const old = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    const answer = await sandbox.get('project/proxy-leads', { period: `${old}-${today}` });
    expect(answer.data.status).toBe('success');
    expect(answer.data.ProxyLeads.length).toBeGreaterThan(0);
    const item = answer.data.ProxyLeads[0];
    expect(item).toEqual({
      id: expect.any(String), title: expect.any(String), text: expect.any(String), name: expect.any(String), phone: expect.any(String),
      email: expect.any(String), tracker: expect.any(String), creation_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      order_id: expect.any(String),
    });
    expect((await sandbox.get('project/proxy-leads', { period: '2001-01-01-2001-01-31' })).data.ProxyLeads).toEqual([]);
    const one = await sandbox.get(`project/proxy-leads/${item.id}`);
    expect(one.data).toEqual({ status: 'success', ProxyLead: item, ProxyLeads: [item] });
    expect((await sandbox.get('project/proxy-leads/999999')).status).toBe(404);
  });

  it('requires a valid proxy lead period', async () => {
    expectBadRequest(await sandbox.get('project/proxy-leads'), 'period');
    expectBadRequest(await sandbox.get('project/proxy-leads', { period: '2024-01-01' }), 'period');
    expectBadRequest(await sandbox.get('project/proxy-leads', { period: '2024-02-01-2024-01-01' }), 'period');
  });

  it('defines events, sends triggers (single and bulk), reads the log, archives', async () => {
    const added = await sandbox.post('project/events/add', [
      { display_name: 'Signup', type: 'js', parameter: 'signup' }, { display_name: 'Pricing page', type: 'url', parameter: 'https://shop.example/pricing' },
    ]);
    expect(added.data).toEqual({
      status: 'success',
      events: [
        { id: expect.any(String), display_name: 'Signup', type: 'js', parameter: 'signup' },
        { id: expect.any(String), display_name: 'Pricing page', type: 'url', parameter: 'https://shop.example/pricing' },
      ],
    });
    expect((await sandbox.post('project/events/send', { name: 'Signup', visit: '1000005', data: { plan: 'pro' } })).data).toEqual({ status: 'success' });
    expect((await sandbox.post('project/events/bulk/send', [{ name: 'Pricing page' }, { name: 'signup', visit: '1000006' }])).data).toEqual({ status: 'success' });
    const log = await sandbox.get('project/events/log', { name: 'Signup' });
    expect(log.data.status).toBe('success');
    expect(log.data.items).toHaveLength(2);
    expect(log.data.items[0]).toEqual({
      id: expect.any(String), display_name: 'Signup', parameter: 'signup', type: 'js', event_date: expect.stringMatching(UTC_TIMESTAMP),
      data: { plan: 'pro' }, visit_id: '1000005',
    });
    const viaBody = await sandbox.get('project/events/log', {}, { name: 'Pricing page', date_from: new Date().toISOString().slice(0, 10) });
    expect(viaBody.data.items.map((i: any) => i.display_name)).toEqual(['Pricing page']);
    const signupId = added.data.events[0].id;
    const archived = await sandbox.post(`project/events/meta/${signupId}/archive`, []);
    expect(archived.data.status).toBe('success');
    expect(archived.data.events.map((e: any) => e.id)).not.toContain(signupId);
    expect(archived.data.events.map((e: any) => e.id)).toContain(added.data.events[1].id);
    expectBadRequest(await sandbox.post('project/events/send', { name: 'Signup' }), 'name');
  });

  it('lists seeded triggers, and rejects unknown events and bad definitions', async () => {
    expect((await sandbox.get('project/events/log')).data.items.length).toBeGreaterThan(0);
    expectBadRequest(await sandbox.post('project/events/send', { name: 'Never defined' }), 'name');
    expectBadRequest(await sandbox.post('project/events/send', {}), 'name');
    expectBadRequest(await sandbox.post('project/events/bulk/send', [{ name: 'Add to cart' }, { name: 42 }]), '[1].name');
    expectBadRequest(await sandbox.post('project/events/add', [{ display_name: 'X', type: 'click', parameter: 'x' }]), '[0].type');
    expectBadRequest(await sandbox.post('project/events/add', { display_name: 'X' }), 'body');
    expect((await sandbox.post('project/events/meta/999999/archive', [])).status).toBe(404);
  });

  it('writes nothing from a bulk send with one malformed item', async () => {
    const before = (await sandbox.get('project/events/log', { name: 'Add to cart' })).data.items.length;
    await sandbox.post('project/events/bulk/send', [{ name: 'Add to cart' }, { name: 42 }]);
    expect((await sandbox.get('project/events/log', { name: 'Add to cart' })).data.items.length).toBe(before);
  });

  it('accepts a bulk send naming an event that is not defined, and logs only the defined ones (as the service does)', async () => {
    const before = (await sandbox.get('project/events/log', { name: 'Add to cart' })).data.items.length;
    const total = (await sandbox.get('project/events/log')).data.items.length;
    expect((await sandbox.post('project/events/bulk/send', [{ name: 'Add to cart' }, { name: 'nope' }, {}])).data).toEqual({ status: 'success' });
    expect((await sandbox.get('project/events/log', { name: 'Add to cart' })).data.items.length).toBe(before + 1);
    expect((await sandbox.get('project/events/log')).data.items.length).toBe(total + 1);
  });
});
