import { SandboxHarness } from './sandbox-harness';

/** Each add-orders rule of the specification, checked through HTTP; each test fails if its rule breaks. */
describe('sandbox add-orders rules', () => {
  let sandbox: SandboxHarness;

  beforeAll(async () => {
    sandbox = await SandboxHarness.start();
  });
  afterAll(() => sandbox.close());

  const addOrders = (orders: unknown[], project?: number) => sandbox.post('project/add-orders', orders, { project });
  const info = (id: string, project?: number) => sandbox.get(`project/orders/${encodeURIComponent(id)}/info`, { project });

  it('upserts by id: a second upload of the same id replaces the order', async () => {
    const project = await sandbox.newProject();
    expect((await addOrders([{ id: 'u1', price: '100', status: '0' }], project)).body).toMatchObject({ saved: 1, processed: 1 });
    expect((await addOrders([{ id: 'u1', price: '250' }], project)).body).toMatchObject({ saved: 1, uploaded: 1 });
    const list = await sandbox.post('project/integration/order/list', {}, { project });
    expect(list.body.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ id: 'u1', revenue: 250, status: { id: '0', type: 'progress' } });
  });

  it('reads date_create as UNIX time, as UTC+03:00 without offset, and with an explicit offset', async () => {
    const answer = await addOrders([
      { id: 'd-unix', date_create: 1704103200 },
      { id: 'd-msk', date_create: '2024-01-01 13:00:00' },
      { id: 'd-utc', date_create: '2024-01-01 10:00:00+0000' },
      { id: 'd-unix-text', date_create: '1704103200' },
    ]);
    expect(answer.body).toMatchObject({ saved: 4, skipped_by_invalid_format: 0 });
    for (const id of ['d-unix', 'd-msk', 'd-utc', 'd-unix-text']) {
      expect((await info(id)).body.order.creation_date).toBe('2024-01-01T10:00:00+0000');
    }
  });

  it('skips an order with an invalid date_create and lists its id in comment', async () => {
    const answer = await addOrders([
      { id: 'bad-date-1', date_create: '01.02.2024 10:00' }, { id: 'bad-date-2', date_create: '2024-02-30 10:00:00' },
      { id: 'good-date', date_create: '2024-02-01 10:00:00' },
    ]);
    expect(answer.body).toMatchObject({ processed: 3, uploaded: 1, saved: 1, skipped_by_invalid_format: 2 });
    expect(answer.body.comment).toContain('bad-date-1');
    expect(answer.body.comment).toContain('bad-date-2');
    expect((await info('bad-date-1')).body).toMatchObject({ status: 'error', error: 'resource_not_found' });
  });

  it('drops a custom field over 1000 symbols, counts it, and saves the order with its other fields', async () => {
    const answer = await addOrders([{ id: 'long-field', fields: { long: 'x'.repeat(1001), edge: 'y'.repeat(1000), short: 'ok' } }]);
    expect(answer.body).toMatchObject({ processed: 1, uploaded: 1, saved: 1, skipped_fields_by_invalid_format: 1 });
    const fields = (await info('long-field')).body.order.fields_data;
    expect(fields).toMatchObject({ short: 'ok', edge: 'y'.repeat(1000) });
    expect(fields.long).toBeUndefined();
  });

  it('skips an order whose status the project does not know; CRM stage ids map to groups', async () => {
    const answer = await addOrders([{ id: 'st-unknown', status: 'no-such-status' }, { id: 'st-crm', status: '142' }]);
    expect(answer.body).toMatchObject({ processed: 2, uploaded: 1, saved: 1, skipped_by_status: 1 });
    expect((await info('st-unknown')).body.error).toBe('resource_not_found');
    expect((await info('st-crm')).body.order).toMatchObject({ status: 'paid', status_original: '142' });
  });

  it('holds an order whose visit is unknown, then writes it when the visit appears', async () => {
    const waiting = await addOrders([{ id: 'wait-1', tracker: '7770001', price: '500' }]);
    expect(waiting.body).toMatchObject({ processed: 1, uploaded: 0, saved: 0, skipped_by_waiting_visit_info: 1 });
    expect((await info('wait-1')).body.error).toBe('resource_not_found');
    const visit = await sandbox.post('_sandbox/visits', [{ id: '7770001', source: { system_name: 'google_ads' } }]);
    expect(visit.body.status).toBe('success');
    const order = (await info('wait-1')).body;
    expect(order.order).toMatchObject({ id: 'wait-1', visit_id: '7770001', price: 500 });
    expect(order.visits.map((item: { id: string }) => item.id)).toContain('7770001');
  });

  it('finds the stored order and its visit whatever form the id and tracker came in', async () => {
    const project = await sandbox.newProject();
    await sandbox.post('_sandbox/visits', [{ id: '4440001', source: { system_name: 'google_ads' } }], { project });
    // a number for the id and the tracker, then the same order with text: one order, unchanged
    expect((await addOrders([{ id: 51, tracker: 4440001, price: '10' }], project)).body).toMatchObject({ saved: 1 });
    expect((await addOrders([{ id: '51', tracker: '4440001', price: '10' }], project)).body)
      .toMatchObject({ saved: 0, skipped_because_not_changed: 1, skipped_by_waiting_visit_info: 0 });
    // an update without a tracker keeps the stored one, whose visit is known: written, not held
    expect((await addOrders([{ id: '51', price: '20' }], project)).body).toMatchObject({ saved: 1, skipped_by_waiting_visit_info: 0 });
    // an id of spaces only is an id too
    expect((await addOrders([{ id: '   ', price: '5' }], project)).body).toMatchObject({ saved: 1 });
    expect((await addOrders([{ id: '   ', price: '5' }], project)).body).toMatchObject({ saved: 0, skipped_because_not_changed: 1 });
    const list = await sandbox.post('project/integration/order/list', {}, { project });
    expect(list.body.total).toBe(2);
  });

  it('answers skipped_because_not_changed for an order identical to the stored one', async () => {
    const order = { id: 'same-1', date_create: 1704103200, status: '1', price: '10', fields: { a: 'b' } };
    expect((await addOrders([order])).body).toMatchObject({ saved: 1 });
    expect((await addOrders([order])).body).toMatchObject({
      processed: 1, uploaded: 0, saved: 0, skipped_because_not_changed: 1,
    });
    expect((await addOrders([{ ...order, price: '11' }])).body).toMatchObject({ saved: 1, skipped_because_not_changed: 0 });
  });

  it('counts processed, uploaded and saved over a mixed batch', async () => {
    const answer = await addOrders([
      { id: 'mix-1' }, { id: 'mix-2', status: 'nope' }, { id: 'mix-3', date_create: 'yesterday' },
      { id: 'mix-4', tracker: '8880001' }, { id: 'mix-5', tracker: '1000007' },
    ]);
    expect(answer.body).toMatchObject({
      status: 'success', processed: 5, uploaded: 2, saved: 2, skipped_by_status: 1, skipped_by_invalid_format: 1,
      skipped_by_waiting_visit_info: 1, skipped_by_internal_error: 0, skipped_because_not_changed: 0,
    });
  });

  it('turns price into revenue and keeps products (5 category levels) and history for order info', async () => {
    await addOrders([{
      id: 'prod-1', price: '1999.6', cost: '700', tracker: '1000010',
      products: [{ id: 'sku', name: 'Lamp', quantity: 2, price: 999.8, brand: 'Acme',
        category: { level1: 'Home', level2: 'Light', level3: 'Lamps', level4: 'Desk', level5: 'LED' } }],
      history: [{ date: '2024-01-02 10:00:00', status: '1', price: 1999.6, cost: null }],
    }]);
    const detail = (await info('prod-1')).body;
    expect(detail.order).toMatchObject({ price: 2000, cost: 700, visit_id: '1000010', is_first: true });
    expect(detail.order.history).toEqual([{ date: '2024-01-02 10:00:00', status: '1', price: 1999.6, cost: null }]);
    expect(detail.products[0]).toMatchObject({ id: 'sku', quantity: 2, brand: 'Acme' });
    expect(detail.products[0].categories).toEqual([
      { level: '1', value: 'Home' }, { level: '2', value: 'Light' }, { level: '3', value: 'Lamps' },
      { level: '4', value: 'Desk' }, { level: '5', value: 'LED' },
    ]);
    const list = await sandbox.post('project/integration/order/list', { filters: [['id', '=', 'prod-1']] });
    expect(list.body.data[0]).toMatchObject({ revenue: 2000, cost: 700, visit_id: '1000010', tracker: 1000010 });
  });

  it('stores text exactly as sent: quotes, NUL, emoji and SQL-like text (written as SQL literals)', async () => {
    const tricky = ["it's", "''", 'a\u0000b', 'Ünïcödé 🚀', "x'); DROP TABLE sb_order; --", 'back\\slash'];
    const orders = tricky.map((text, index) => ({ id: `text-${index}-${text}`, name: text, fields: { note: text } }));
    expect((await addOrders(orders)).body).toMatchObject({ processed: tricky.length, saved: tricky.length });
    for (const [index, text] of tricky.entries()) {
      const order = (await info(`text-${index}-${text}`)).body.order;
      expect(order).toMatchObject({ id: `text-${index}-${text}`, title: text });
      expect(order.fields_data.note).toBe(text);
    }
    expect((await addOrders(orders)).body).toMatchObject({ skipped_because_not_changed: tricky.length });
  });

  it('rejects a sixth category level and wrong types with 400 naming the field', async () => {
    const http = { headers: { 'Use-Http-Code': '1' } };
    const deep = await sandbox.post('project/add-orders', [{ id: 'x', products: [{ id: 'p', name: 'P', quantity: 1,
      category: { level6: 'too deep' } }] }], http);
    expect(deep.status).toBe(400);
    expect(deep.body.description).toContain('[0].products[0].category.level6');
    const noQuantity = await sandbox.post('project/add-orders', [{ id: 'x', products: [{ id: 'p', name: 'P' }] }], http);
    expect(noQuantity.body.description).toContain('[0].products[0].quantity');
    const notArray = await sandbox.post('project/add-orders', { id: 'x' }, http);
    expect(notArray.status).toBe(400);
    expect(notArray.body.description).toContain('body');
    const badPrice = await sandbox.post('project/add-orders', [{ id: 'x', price: 'lots' }], http);
    expect(badPrice.body.description).toContain('[0].price');
  });

  it('handles a batch larger than one statement; a repeated id keeps its last version', async () => {
    const project = await sandbox.newProject('big');
    const orders = Array.from({ length: 1200 }, (_, index) => ({ id: `big-${index}`, price: String(index) }));
    orders[1100] = { id: 'big-10', price: '999' };
    const first = await addOrders(orders, project);
    expect(first.body).toMatchObject({ processed: 1200, saved: 1200, uploaded: 1200 });
    const again = await addOrders(orders, project);
    // big-10 flips between its two versions inside the batch; the 1,198 others are unchanged.
    expect(again.body).toMatchObject({ processed: 1200, saved: 2, skipped_because_not_changed: 1198 });
    const list = await sandbox.post('project/integration/order/list', { filters: [['id', '=', 'big-10']] }, { project });
    expect(list.body.data[0].revenue).toBe(999);
    expect((await sandbox.post('project/integration/order/list', { limit: 1 }, { project })).body.total).toBe(1199);
  });

  it('tells first orders and first sales of a client apart', async () => {
    await addOrders([
      { id: 'c-1', client_id: 'crm-c', date_create: 1704103200, status: '0' },
      { id: 'c-2', client_id: 'crm-c', date_create: 1704189600, status: '1' },
      { id: 'c-3', client_id: 'crm-c', date_create: 1704276000, status: '1' },
    ]);
    expect((await info('c-1')).body.order).toMatchObject({ is_first: true, is_first_sale: false });
    expect((await info('c-2')).body.order).toMatchObject({ is_first: false, is_first_sale: true });
    expect((await info('c-3')).body.order).toMatchObject({ is_first: false, is_first_sale: false });
  });
});
