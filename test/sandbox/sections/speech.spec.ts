import { SectionClient, UTC_TIMESTAMP, expectBadRequest } from './section-client';

/** Speech dictionaries and calls over HTTP. */
describe('sandbox sections: speech analytics', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  const dictionary = { name: 'Доставка', is_problem: false, is_for_operator: true, is_for_client: true, color: '#00ff00', phrases: ['доставка', 'курьер'] };

  it('lists system dictionaries system_1..3 and custom ones', async () => {
    const answer = await sandbox.post('project/speech/dictionary/list');
    expect(answer.data).toMatchObject({ status: 'success', total: answer.data.data.length });
    const ids = answer.data.data.map((d: any) => d.id);
    expect(ids).toEqual(expect.arrayContaining(['system_1', 'system_2', 'system_3']));
    expect(answer.data.data.find((d: any) => d.id === 'system_1')).toEqual({
      id: 'system_1', name: expect.any(String), color: expect.any(String), is_system: 1, is_problem: 0, is_for_operator: 1, is_for_client: 0,
    });
    expect(answer.data.data.some((d: any) => d.is_system === 0)).toBe(true);
  });

  it('creates, reads phrases of, updates and deletes a custom dictionary', async () => {
    const created = await sandbox.post('project/speech/dictionary/custom/create', dictionary);
    expect(created.data).toMatchObject({ status: 'success', total: created.data.data.length });
    const mine = created.data.data.find((d: any) => d.name === 'Доставка');
    expect(mine).toMatchObject({ is_system: 0, is_problem: 0, is_for_operator: 1, is_for_client: 1, color: '#00ff00' });
    const phrases = await sandbox.post('project/speech/dictionary/custom/phrase/list', { id: mine.id });
    expect(phrases.data).toEqual({ status: 'success', data: { dictionary_id: Number(mine.id), phrases: ['доставка', 'курьер'] } });
    await sandbox.post('project/speech/dictionary/custom/update', { id: Number(mine.id), phrases: ['самовывоз'], is_problem: true });
    expect((await sandbox.post('project/speech/dictionary/custom/phrase/list', { id: String(mine.id) })).data.data.phrases).toEqual(['самовывоз']);
    const listed = (await sandbox.post('project/speech/dictionary/list')).data.data.find((d: any) => d.id === mine.id);
    expect(listed).toMatchObject({ is_problem: 1, name: 'Доставка' });
    expect((await sandbox.post('project/speech/dictionary/custom/delete', { id: mine.id })).data).toEqual({ status: 'success' });
    expect((await sandbox.post('project/speech/dictionary/custom/phrase/list', { id: mine.id })).status).toBe(404);
  });

  it('refuses to change system dictionaries and validates dictionary fields', async () => {
    expectBadRequest(await sandbox.post('project/speech/dictionary/custom/update', { id: 'system_2', name: 'x' }), 'id');
    expectBadRequest(await sandbox.post('project/speech/dictionary/custom/delete', { id: 'system_1' }), 'id');
    expectBadRequest(await sandbox.post('project/speech/dictionary/custom/create', { ...dictionary, is_problem: 1 }), 'is_problem');
    expectBadRequest(await sandbox.post('project/speech/dictionary/custom/create', { ...dictionary, color: 'green' }), 'color');
    expectBadRequest(await sandbox.post('project/speech/dictionary/custom/create', { ...dictionary, phrases: undefined }), 'phrases');
  });

  it('stores an uploaded call with an empty transcription and lists it', async () => {
    const added = await sandbox.post('project/speech/call/add', {
      date: '2024-04-10 12:00:00', callee: '+74950000000', caller: '+79160000000', file_url: 'https://files.example/rec.mp3',
      visit_id: 1000001, fields: [{ title: 'Отдел', name: 'dept', value: 'vip' }],
    });
    expect(added.data).toEqual({ status: 'success' });
    const answer = await sandbox.post('project/speech/call/list', {
      period: { from: '2024-04-10T00:00:00.000Z', to: '2024-04-10T23:59:59.999Z' }, filters: [{ field: 'fields.dept', operator: '=', value: 'vip' }],
    });
    expect(answer.data.status).toBe('success');
    expect(answer.data.data).toHaveLength(1);
    const call = answer.data.data[0];
    expect(call).toEqual({
      id: expect.any(String), date: '2024-04-10T12:00:00+0000', callee: '+74950000000', caller: '+79160000000',
      duration: 0, answer_duration: 0, waiting_time: 0, link: 'https://files.example/rec.mp3',
      speech_statistics: expect.objectContaining({ silence_percent: 0, speech_operator_to_client_ratio: '0/0' }),
      matched_dictionaries: { client_dictionary_ids: [], operator_dictionary_ids: [] }, transcriptions: [],
    });
    expect(Object.keys(call.speech_statistics)).toHaveLength(22);
  });

  it('filters seeded calls with contains_all on operator dictionaries, sorts and pages', async () => {
    const all = (await sandbox.post('project/speech/call/list', { sort: ['date', 'desc'] })).data.data;
    expect(all.length).toBeGreaterThan(2);
    expect(all[0].date >= all[1].date).toBe(true);
    expect(all[0].date).toMatch(UTC_TIMESTAMP);
    const greeted = await sandbox.post('project/speech/call/list', {
      filters: [{ field: 'matched_dictionaries.operator_dictionary_ids', operator: 'contains_all', value: ['system_1', 'system_2'] }],
    });
    expect(greeted.data.data.length).toBeGreaterThan(0);
    for (const call of greeted.data.data) {
      expect(call.matched_dictionaries.operator_dictionary_ids).toEqual(expect.arrayContaining(['system_1', 'system_2']));
    }
    expect(greeted.data.data.length).toBeLessThan(all.length);
    const page = await sandbox.post('project/speech/call/list', { sort: ['date', 'desc'], limit: 1, offset: 1 });
    expect(page.data.data.map((c: any) => c.id)).toEqual([all[1].id]);
  });

  it('rejects calls missing required fields, or with both marker and visit_id', async () => {
    const call = { date: '2024-04-10 12:00:00', callee: '1', caller: '2', file_url: 'https://files.example/a.mp3' };
    expectBadRequest(await sandbox.post('project/speech/call/add', { ...call, file_url: undefined }), 'file_url');
    expectBadRequest(await sandbox.post('project/speech/call/add', { ...call, date: 'yesterday' }), 'date');
    expectBadRequest(await sandbox.post('project/speech/call/add', { ...call, visit_id: 1000001, marker: 5 }), 'marker');
    expectBadRequest(await sandbox.post('project/speech/call/list', { filters: [{ field: 'matched_dictionaries.operator_dictionary_ids', operator: 'contains_all', value: 'system_1' }] }), 'filters[0].value');
  });
});
