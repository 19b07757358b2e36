import { SandboxHarness } from './sandbox-harness';

/** Order list: `and` triples with every operator, status groups, date ranges, extend, paging, limits. */
describe('sandbox order list', () => {
  let sandbox: SandboxHarness;
  let project: number;

  const list = (body: unknown, options = {}) => sandbox.post('project/integration/order/list', body, { project, ...options });
  const ids = async (body: unknown): Promise<string[]> => {
    const answer = await list(body);
    expect(answer.body.status).toBe('success');
    return answer.body.data.map((order: { id: string }) => order.id);
  };

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
    project = await sandbox.newProject('list');
    const answer = await sandbox.post('project/add-orders', [
      { id: 'A-1', date_create: '2024-03-01 00:00:00+0000', status: '0', price: '100', client_id: 'cl-1', name: 'Alpha' },
      { id: 'A-2', date_create: '2024-03-02 00:00:00+0000', status: '1', price: '200', client_id: 'cl-1', name: 'Beta' },
      { id: 'B-3', date_create: '2024-03-03 00:00:00+0000', status: '2', price: '300', client_id: 'cl-2', name: 'Gamma' },
      { id: 'B-4', date_create: '2024-03-04 00:00:00+0000', status: '142', price: '400', name: 'Alphabet' },
      { id: 'C-5', date_create: '2024-03-05 00:00:00+0000', status: 'new', price: '500', name: 'Delta' },
    ], { project });
    expect(answer.body.saved).toBe(5);
  });
  afterAll(() => sandbox.close());

  it('applies every comparison operator', async () => {
    expect(await ids({ filters: [['id', '=', 'A-2']] })).toEqual(['A-2']);
    expect(await ids({ filters: [['id', '!=', 'A-2']] })).toEqual(['A-1', 'B-3', 'B-4', 'C-5']);
    expect(await ids({ filters: [['revenue', '>', '300']] })).toEqual(['B-4', 'C-5']);
    expect(await ids({ filters: [['revenue', '<', '300']] })).toEqual(['A-1', 'A-2']);
    expect(await ids({ filters: [['revenue', '>=', '300']] })).toEqual(['B-3', 'B-4', 'C-5']);
    expect(await ids({ filters: [['revenue', '<=', '100']] })).toEqual(['A-1']);
  });

  it('applies like, like%, in and contains_all', async () => {
    expect(await ids({ filters: [['name', 'like', 'lpha']] })).toEqual(['A-1', 'B-4']);
    expect(await ids({ filters: [['id', 'like%', 'B-']] })).toEqual(['B-3', 'B-4']);
    expect(await ids({ filters: [['id', 'in', ['A-1', 'C-5']]] })).toEqual(['A-1', 'C-5']);
    expect(await ids({ filters: [['name', 'contains_all', ['Alpha', 'bet']]] })).toEqual(['B-4']);
  });

  it('also accepts a flat array of triples, joined by AND', async () => {
    expect(await ids({ filters: [['client_id', '=', 'cl-1'], ['revenue', '>', '150']] })).toEqual(['A-2']);
  });

  it('filters status by group 0/1/2, CRM stage ids included', async () => {
    expect(await ids({ filters: [['status', '=', '0']] })).toEqual(['A-1', 'C-5']);
    expect(await ids({ filters: [['status', '=', '1']] })).toEqual(['A-2', 'B-4']);
    expect(await ids({ filters: [['status', '=', '2']] })).toEqual(['B-3']);
    expect(await ids({ filters: [['status', 'in', ['1', '2']]] })).toEqual(['A-2', 'B-3', 'B-4']);
  });

  it('filters creation_date ranges in any date form', async () => {
    const range = [['creation_date', '>=', '2024-03-02T00:00:00.000Z'], ['creation_date', '<', '2024-03-04 00:00:00']];
    expect(await ids({ filters: { and: range } })).toEqual(['A-2', 'B-3']);
  });

  it('pages with limit and offset and reports the total', async () => {
    const answer = await list({ limit: 2, offset: 1 });
    expect(answer.body.total).toBe(5);
    expect(answer.body.data.map((order: { id: string }) => order.id)).toEqual(['A-2', 'B-3']);
  });

  it('attaches the visit only with extend: ["visit"]', async () => {
    await sandbox.post('project/add-orders', [{ id: 'V-1', tracker: '1000003', status: '1' }]);
    const plain = await sandbox.post('project/integration/order/list', { filters: [['id', '=', 'V-1']] });
    expect(plain.body.data[0]).toMatchObject({ visit_id: '1000003', visit: null });
    const extended = await sandbox.post('project/integration/order/list', { filters: [['id', '=', 'V-1']], extend: ['visit'] });
    expect(extended.body.data[0].visit).toMatchObject({ id: '1000003', order_ids: ['V-1'] });
    expect(extended.body.data[0].visit.source.system_name).toEqual(expect.any(String));
  });

  it('rejects fields that cannot be filtered and unknown operators with 400', async () => {
    const http = { headers: { 'Use-Http-Code': '1' } };
    const byVisit = await list({ filters: [['source_type', '=', 'x']] }, http);
    expect(byVisit.status).toBe(400);
    expect(byVisit.body.description).toContain('source_type');
    const badOperator = await list({ filters: [['id', '~', 'x']] }, http);
    expect(badOperator.status).toBe(400);
    expect(badOperator.body.description).toContain('operator');
    const badLimit = await list({ limit: 'many' }, http);
    expect(badLimit.body.description).toContain('limit');
  });

  it('answers the Limits table rate with 429 and Retry-After when the budget is on', async () => {
    const limited = await SandboxHarness.start({ budget: 'on' });
    try {
      const statuses: number[] = [];
      for (let call = 0; call < 11; call += 1) {
        // 10 per minute for extend visit with a small limit; spaced to stay under the 10/s project budget.
        const answer = await limited.post('project/integration/order/list', { extend: ['visit'], limit: 10 },
          { headers: { 'Use-Http-Code': '1' } });
        statuses.push(answer.status);
        if (answer.status === 429) {
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(answer.body.error).toBe('request_limit_error');
        }
        await new Promise((resolve) => setTimeout(resolve, 110));
      }
      expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
      expect(statuses[10]).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('caps limit on every list: above the cap a 400 naming limit and the cap, in the service\'s error shape', async () => {
    const over = async (path: string, limit: number, max: number) => {
      const answer = await sandbox.post(path, { limit }, { project, headers: { 'Use-Http-Code': '1' } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        status: 'error', error: 'request_data_validation_error', description: expect.stringContaining(`at most ${max}`), details: { field: 'limit', max },
      });
    };
    await over('project/integration/order/list', 400_000, 10_000);
    await over('project/clients', 10_001, 10_000);
    await over('project/emailtracking/email/list', 1_001, 1_000);
    await over('project/clients/campaign/list', 5_000, 1_000);
    expect((await list({ limit: 10_000 })).body.status).toBe('success');
  });
});
