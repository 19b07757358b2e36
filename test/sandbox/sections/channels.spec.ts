import { SectionClient, expectBadRequest } from './section-client';

/** Channels, expenses and media plans over HTTP. */
describe('sandbox sections: channels, expenses, media plans', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  it('lists the channels with name, system_name and icon', async () => {
    const answer = await sandbox.post('project/analytics/source/list');
    expect(answer.status).toBe(200);
    expect(answer.data.status).toBe('success');
    expect(answer.data.total).toBe(answer.data.data.length);
    expect(answer.data.data).toContainEqual({ name: 'Google Ads', system_name: 'google_ads', icon: expect.stringMatching(/^https:/) });
  });

  it('adds an expense (the add shape), lists it, updates its cost and deletes it', async () => {
    const added = await sandbox.post('project/analytics/source/cost/add', {
      source: 'facebook', from_date: '2024-03-01', to_date: '2024-03-31', marketing_cost: 12000,
    });
    expect(added.data).toEqual({
      status: 'success',
      data: {
        id: expect.any(String), date_from: '2024-03-01T00:00:00.000Z', date_to: '2024-03-31T00:00:00.000Z',
        timezone: 'Europe/Moscow', marker: 'facebook', title: 'Facebook Ads', comment: null, cost: 12000,
        create_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), update_date: expect.any(String),
      },
    });
    const id = added.data.data.id as string;
    const find = async () => ((await sandbox.post('project/analytics/source/cost/list')).data as any[]).find((e) => e.id === id);
    expect(await find()).toEqual({
      id, source: 'facebook', name: 'Facebook Ads', from_date: '2024-03-01', to_date: '2024-03-31', timezone: 'Europe/Moscow', marketing_cost: 12000,
    });
    expect((await sandbox.post('project/analytics/source/cost/update', { id: Number(id), marketing_cost: 15000 })).data).toEqual({ status: 'success' });
    expect((await find()).marketing_cost).toBe(15000);
    expect((await sandbox.post('project/analytics/source/cost/delete', { id: Number(id) })).data).toEqual({ status: 'success' });
    expect(await find()).toBeUndefined();
    expect((await sandbox.post('project/analytics/source/cost/delete', { id: Number(id) })).status).toBe(404);
  });

  it('lists the seeded expenses as a top-level array', async () => {
    const answer = await sandbox.post('project/analytics/source/cost/list');
    expect(Array.isArray(answer.data)).toBe(true);
    expect(answer.data.length).toBeGreaterThan(0);
  });

  it('rejects an expense with a missing, mistyped or unknown field, naming it', async () => {
    const valid = { source: 'facebook', from_date: '2024-03-01', to_date: '2024-03-31', marketing_cost: 1 };
    expectBadRequest(await sandbox.post('project/analytics/source/cost/add', { ...valid, marketing_cost: undefined }), 'marketing_cost');
    expectBadRequest(await sandbox.post('project/analytics/source/cost/add', { ...valid, marketing_cost: '100' }), 'marketing_cost');
    expectBadRequest(await sandbox.post('project/analytics/source/cost/add', { ...valid, from_date: '2024-02-30' }), 'from_date');
    expectBadRequest(await sandbox.post('project/analytics/source/cost/add', { ...valid, source: 'tv' }), 'source');
    expectBadRequest(await sandbox.post('project/analytics/source/cost/add', { ...valid, to_date: '2024-02-01' }), 'from_date');
  });

  const month = { date_from: '2024-02-01', date_to: '2024-02-29' };

  it('creates, lists, updates and deletes a media plan of one month', async () => {
    const metrics = [{ name: 'leads', value: 10 }, { name: 'marketing_cost', value: 5000 }];
    expect((await sandbox.post('project/mediaplan/target/create', { channel: 'google_ads', ...month, metrics })).data).toEqual({ status: 'success' });
    const list = await sandbox.post('project/mediaplan/target/list', month);
    expect(list.data).toMatchObject({ status: 'success', total: 1 });
    expect(list.data.data[0]).toEqual({ id: expect.any(String), channel: 'google_ads', ...month, metrics });
    const id = list.data.data[0].id as string;
    const updated = { id, channel: 'facebook', ...month, metrics: [{ name: 'cpl', value: 400 }] };
    expect((await sandbox.post('project/mediaplan/target/update', updated)).data).toEqual({ status: 'success' });
    expect((await sandbox.post('project/mediaplan/target/list', month)).data.data).toEqual([updated]);
    expect((await sandbox.post('project/mediaplan/target/delete', { id })).data).toEqual({ status: 'success' });
    expect((await sandbox.post('project/mediaplan/target/list', month)).data.total).toBe(0);
  });

  it('lists the seeded plans of the current month', async () => {
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    expect((await sandbox.post('project/mediaplan/target/list', { date_from: first, date_to: last })).data.total).toBeGreaterThan(0);
  });

  it('accepts only the first and last day of one month, and known metric names', async () => {
    const plan = { channel: 'google_ads', metrics: [{ name: 'leads', value: 1 }] };
    expectBadRequest(await sandbox.post('project/mediaplan/target/list', { date_from: '2024-02-02', date_to: '2024-02-29' }), 'date_from');
    expectBadRequest(await sandbox.post('project/mediaplan/target/list', { date_from: '2024-02-01', date_to: '2024-02-28' }), 'date_to');
    expectBadRequest(await sandbox.post('project/mediaplan/target/create', { ...plan, date_from: '2024-01-01', date_to: '2024-02-29' }), 'date_to');
    expectBadRequest(await sandbox.post('project/mediaplan/target/create', { ...plan, ...month, metrics: [{ name: 'roi', value: 1 }] }), 'metrics[0].name');
    expectBadRequest(await sandbox.post('project/mediaplan/target/update', { ...plan, ...month }), 'id');
  });
});
