import { SectionClient, UTC_TIMESTAMP, expectBadRequest } from './section-client';

/** Call tracking scripts and their state table over HTTP. */
describe('sandbox sections: call tracking scripts', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  const newScript = (overrides: Record<string, unknown> = {}) => ({
    name: 'Site numbers', is_enabled: 1, creation_date: '2024-05-01 10:00:00',
    options: {
      calltracking_type: 'dynamic', segments: [['source.system_name', '=', 'google_ads']], phone_format: '+7XXXXXXXXXX',
      css_selector: ['.phone', '#main-phone'], redirect: { type: 'sip_trunk', value: 'secret' }, replaceable_numbers: ['+74950001122'],
    },
    integration: {
      crm: { is_enabled: 1, custom_fields: [{ id: '77', type: 'text', value: 'call' }] }, webhook: { url: 'https://hooks.example/end' },
      webhook_start: { url: null }, google_analytics: { tracking_id: 'UA-1-2', action: 'call', category: 'phone', label: 'tracker' },
      is_lead_auto_create: 1,
    },
    ...overrides,
  });
  const list = async (isDeleted: 0 | 1) => (await sandbox.post('project/calltracking/script/list', { is_deleted: isDeleted })).data;

  it('creates an enabled script and answers it with an integer id', async () => {
    const answer = await sandbox.post('project/calltracking/script/create', newScript());
    expect(answer.data).toMatchObject({ status: 'success', total: 1 });
    expect(answer.data.data).toEqual({
      id: expect.any(Number), name: 'Site numbers', creation_date: '2024-05-01T07:00:00+0000', is_enabled: 1, call_count: 0,
      accuracy: null, needed_phone_count: null,
      options: {
        calltracking_type: 'dynamic', static_source: null, css_selector: ['.phone', '#main-phone'], phone_format: '+7XXXXXXXXXX',
        redirect: { type: 'sip_trunk', value: 'secret' }, segments: [['source.system_name', '=', 'google_ads']], target_call_time: 0,
      },
      integration: {
        is_lead_auto_create: 1, crm: { enabled: 1, custom_fields: [{ id: '77', type: 'text', value: 'call' }] },
        webhook: { url: 'https://hooks.example/end' }, webhook_start: { url: null },
        google_analytics: { tracking_id: 'UA-1-2', action: 'call', category: 'phone', label: 'tracker' },
      },
    });
  });

  it('answers creation_date in the response form: no offset read as UTC+03:00, an offset honoured', async () => {
    const created = async (creationDate: string) =>
      (await sandbox.post('project/calltracking/script/create', newScript({ name: `Date ${creationDate}`, creation_date: creationDate }))).data.data;
    const moscow = await created('2024-05-01 10:00:00');
    expect(moscow.creation_date).toBe('2024-05-01T07:00:00+0000');
    expect((await created('2024-05-01 10:00:00+0000')).creation_date).toBe('2024-05-01T10:00:00+0000');
    expect((await created('2024-05-01T10:00:00.000Z')).creation_date).toBe('2024-05-01T10:00:00+0000');
    const listed = (await list(0)).data.find((s: any) => s.id === moscow.id);
    expect(listed.creation_date).toBe('2024-05-01T07:00:00+0000');
  });

  it('rejects an invalid creation_date with 400 naming it', async () => {
    for (const bad of ['2024-02-30 10:00:00', 'yesterday', '2024-05-01 25:00:00']) {
      expectBadRequest(await sandbox.post('project/calltracking/script/create', newScript({ creation_date: bad })), 'creation_date');
    }
  });

  it('answers the seeded scripts, existing and deleted, with UTC response timestamps', async () => {
    for (const isDeleted of [0, 1] as const) {
      const scripts = (await list(isDeleted)).data as { creation_date: string }[];
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script.creation_date).toMatch(UTC_TIMESTAMP);
    }
  });

  it('follows the state table: create disabled, enable, deactivate, delete; lists by is_deleted', async () => {
    const created = await sandbox.post('project/calltracking/script/create', newScript({ name: 'State table', is_enabled: 0 }));
    const id = created.data.data.id as number;
    const find = async (isDeleted: 0 | 1) => (await list(isDeleted)).data.find((s: any) => s.id === id);
    expect((await find(0)).is_enabled).toBe(0);
    await sandbox.post('project/calltracking/script/update', { id, is_enabled: 1 });
    expect((await find(0)).is_enabled).toBe(1);
    await sandbox.post('project/calltracking/script/update', { id, is_enabled: 0, name: 'Deactivated' });
    expect(await find(0)).toMatchObject({ is_enabled: 0, name: 'Deactivated' });
    expect((await sandbox.post('project/calltracking/script/delete', { id })).data).toEqual({ status: 'success' });
    expect(await find(0)).toBeUndefined();
    expect(await find(1)).toMatchObject({ id, name: 'Deactivated' });
    expect((await sandbox.post('project/calltracking/script/update', { id, is_enabled: 1 })).status).toBe(404);
  });

  it('shows the list form: sip_trunk_postfix and is_lead_auto_create as a string; GET works too', async () => {
    const created = await sandbox.post('project/calltracking/script/create', newScript({ name: 'List form' }));
    const id = created.data.data.id as number;
    const answer = await sandbox.get('project/calltracking/script/list', { is_deleted: 0 });
    expect(answer.data).toMatchObject({ status: 'success', total: answer.data.data.length });
    const script = answer.data.data.find((s: any) => s.id === id);
    expect(script.options.redirect).toEqual({ type: 'sip_trunk', value: 'secret', sip_trunk_postfix: String(id) });
    expect(script.integration.is_lead_auto_create).toBe('1');
    expect((await list(1)).total).toBeGreaterThan(0);
  });

  it('changes only the given options on update', async () => {
    const created = await sandbox.post('project/calltracking/script/create', newScript({ name: 'Partial' }));
    const id = created.data.data.id as number;
    await sandbox.post('project/calltracking/script/update', { id, options: { phone_format: '8XXXXXXXXXX' } });
    const script = (await list(0)).data.find((s: any) => s.id === id);
    expect(script.options).toMatchObject({ phone_format: '8XXXXXXXXXX', css_selector: ['.phone', '#main-phone'] });
  });

  it('rejects missing required fields and wrong types, naming the field', async () => {
    const base = newScript();
    const without = (key: string) => ({ ...base.options, [key]: undefined });
    expectBadRequest(await sandbox.post('project/calltracking/script/create', { ...base, options: without('replaceable_numbers') }), 'options.replaceable_numbers');
    expectBadRequest(await sandbox.post('project/calltracking/script/create', { ...base, options: without('css_selector') }), 'options.css_selector');
    expectBadRequest(await sandbox.post('project/calltracking/script/create', { ...base, name: undefined }), 'name');
    expectBadRequest(await sandbox.post('project/calltracking/script/create', { ...base, is_enabled: '1' }), 'is_enabled');
    expectBadRequest(await sandbox.post('project/calltracking/script/create', { ...base, options: { ...base.options, redirect: { type: 'fax', value: '1' } } }), 'options.redirect.type');
    expectBadRequest(await sandbox.post('project/calltracking/script/create', { ...base, integration: { crm: {} } }), 'integration.crm.is_enabled');
    expectBadRequest(await sandbox.post('project/calltracking/script/update', { name: 'x' }), 'id');
    expectBadRequest(await sandbox.post('project/calltracking/script/list', { is_deleted: 2 }), 'is_deleted');
  });
});
