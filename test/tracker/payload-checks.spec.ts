import {
  AddOrder,
  checkAddOrder,
  checkExpense,
  checkImportClient,
  checkLead,
  checkManager,
  checkMediaPlan,
  checkProjectCreate,
  checkVisitParams,
  describeProblems,
  Currency,
  LeadStatusId,
} from '../../src/tracker';

describe('payload checks', () => {
  const goodOrder: AddOrder = {
    id: 'D-1',
    date_create: '2024-01-02 10:00:00+0000',
    fields: { comment: 'ok', empty: null },
    products: [{ id: 'p1', name: 'Tea', quantity: 2, category: { level1: 'Food', level5: 'Leaf' } }],
    history: [{ date: '1704189600', status: '3' }],
  };

  it('accepts a valid order', () => {
    expect(checkAddOrder(goodOrder)).toEqual([]);
  });

  it('rejects a field value over 1000 symbols, naming record and field', () => {
    const problems = checkAddOrder({ ...goodOrder, fields: { comment: 'x'.repeat(1001) } });
    expect(problems).toEqual([{ id: 'D-1', field: 'fields.comment', reason: expect.stringContaining('1001 symbols') }]);
    // 1000 emoji are 1000 symbols (2000 UTF-16 units) and pass.
    expect(checkAddOrder({ ...goodOrder, fields: { note: '😀'.repeat(1000) } })).toEqual([]);
  });

  it('rejects product category nesting beyond 5 levels', () => {
    const order: AddOrder = { id: 'D-2', products: [{ id: 'p', name: 'n', quantity: 1, category: { level1: 'a', level6: 'f' } as never }] };
    expect(checkAddOrder(order)).toEqual([{ id: 'D-2', field: 'products[0].category.level6', reason: expect.stringContaining('5 levels') }]);
  });

  it('names records without id by their index, and checks dates and required product fields', () => {
    const problems = checkAddOrder({ date_create: '02.01.2024', products: [{ id: '', name: 'n', quantity: 1.5 }] }, 7);
    expect(problems.map((p) => [p.id, p.field])).toEqual([
      ['#7', 'date_create'],
      ['#7', 'products[0].id'],
      ['#7', 'products[0].quantity'],
    ]);
    expect(describeProblems(problems)).toContain('record #7, field date_create');
  });

  it('checks clients and managers', () => {
    expect(checkImportClient({ id: 'C1', name: 'Ann', birth_date: '1990-02-30' })).toEqual([
      { id: 'C1', field: 'birth_date', reason: expect.stringContaining('YYYY-MM-DD') },
    ]);
    expect(checkImportClient({ id: 'C1', name: 'Ann', birth_date: '1990-02-28', phone: '1' })).toEqual([]);
    expect(checkManager({ id: 'M1', name: 'Bob' })).toEqual([{ id: 'M1', field: 'phone', reason: 'phone or email must be given' }]);
    expect(checkManager({ id: 'M1', name: 'Bob', email: 'b@x' })).toEqual([]);
  });

  it('requires media plan dates to be the first and last day of one month', () => {
    const plan = { channel: 'ads', date_from: '2024-02-01', date_to: '2024-02-29', metrics: [{ name: 'leads' as const, value: 10 }] };
    expect(checkMediaPlan(plan)).toEqual([]);
    expect(checkMediaPlan({ ...plan, date_to: '2024-02-28' })).toEqual([
      { id: 'ads:2024-02-01', field: 'date_to', reason: expect.stringContaining('last day') },
    ]);
    expect(checkMediaPlan({ ...plan, id: 'P9', date_from: '2024-02-02', date_to: '2024-03-31' }).map((p) => [p.id, p.field])).toEqual([
      ['P9', 'date_from'],
      ['P9', 'date_to'],
    ]);
    expect(checkMediaPlan({ ...plan, metrics: [{ name: 'roi' as never, value: 1.5 }] }).map((p) => p.field)).toEqual([
      'metrics[0].name',
      'metrics[0].value',
    ]);
  });

  it('requires a listed currency for a new project', () => {
    expect(checkProjectCreate({ name: 'Shop', currency: 'EUR' })).toEqual([]);
    expect(checkProjectCreate({ name: 'Shop', currency: 'JPY' as Currency })).toEqual([
      { id: 'Shop', field: 'currency', reason: expect.stringContaining('RUB') },
    ]);
  });

  it("requires lead status '0', '1' or '2'", () => {
    const lead = { creation_date: '2024-01-01 00:00:00+0000', name: 'N', title: 'T', status: '1' as LeadStatusId };
    expect(checkLead(lead)).toEqual([]);
    expect(checkLead({ ...lead, status: '3' as LeadStatusId }, 4)).toEqual([{ id: '#4', field: 'status', reason: expect.any(String) }]);
    expect(checkLead({ id: 'L1', title: 'only this' })).toEqual([]);
    expect(checkLead({ id: 'L1', status: 'paid' as LeadStatusId })).toEqual([{ id: 'L1', field: 'status', reason: expect.any(String) }]);
  });

  it('allows tracker_param1 to tracker_param50 only', () => {
    expect(checkVisitParams({ visit: 'V1', tracker_param1: 'a', tracker_param50: null })).toEqual([]);
    expect(checkVisitParams({ visit: 'V1', tracker_param51: 'a', tracker_param0: 'b' }).map((p) => [p.id, p.field])).toEqual([
      ['V1', 'tracker_param51'],
      ['V1', 'tracker_param0'],
    ]);
  });

  it('checks expenses', () => {
    expect(checkExpense({ source: 'ads', from_date: '2024-01-01', to_date: '2024-01-31', marketing_cost: 100 })).toEqual([]);
    expect(checkExpense({ source: 'ads', from_date: '2024-01-31', to_date: '2024-01-01', marketing_cost: 1.5 }).map((p) => p.field)).toEqual([
      'to_date',
      'marketing_cost',
    ]);
  });
});
