import type { Deal } from '../../../src/connectors/canonical';
import { dealToAddOrder } from '../../../src/engine/mappings/deals';
import { dealsHandler } from '../../../src/engine/pipeline/sending/deals';
import { MappingError } from '../../../src/engine/mappings/mapping-error';
import { FakeTrackerService } from '../../support/fake-tracker-service';
import { testTracker } from '../../support/engine-harness';

const deal = (extra: Partial<Deal> = {}): Deal => ({ id: 'D-1', title: 'Sofa', created_at: new Date('2025-03-10T09:00:00Z'), ...extra });

describe('deals stream: mapping and handler', () => {
  it('maps a deal to an add-orders item: dates with an explicit offset, the manager in fields, money as text', () => {
    const order = dealToAddOrder(
      deal({ price: 1200.5, manager_id: 'm7', visit_id: '1000001', products: [{ id: 'p1', name: 'Leg', quantity: 4, price: 10, categories: ['A', 'B'] }], history: [{ date: new Date('2025-03-11T10:00:00Z'), status: '2' }] }),
    );
    expect(order).toEqual({
      id: 'D-1',
      date_create: '2025-03-10 09:00:00+0000',
      name: 'Sofa',
      tracker: '1000001',
      price: '1200.5',
      fields: { manager_id: 'm7' },
      products: [{ id: 'p1', name: 'Leg', quantity: 4, price: 10, category: { level1: 'A', level2: 'B' } }],
      history: [{ date: '2025-03-11 10:00:00+0000', status: '2' }],
    });
    expect(dealsHandler.withoutVisit!(dealToAddOrder(deal()))).toBe(true);
  });

  it("puts custom fields and the manager in fields: a custom manager_id wins, the deal's own fields are not touched, none gives no fields", () => {
    const custom = { source: 'ads', note: null };
    expect(dealToAddOrder(deal({ custom_fields: custom, manager_id: 'm7' })).fields).toEqual({ source: 'ads', note: null, manager_id: 'm7' });
    expect(custom).toEqual({ source: 'ads', note: null });
    expect(dealToAddOrder(deal({ custom_fields: { manager_id: 'own' }, manager_id: 'm7' })).fields).toEqual({ manager_id: 'own' });
    expect(dealToAddOrder(deal({ custom_fields: { source: 'ads' } })).fields).toEqual({ source: 'ads' });
    expect(dealToAddOrder(deal({ custom_fields: {}, manager_id: 'm7' })).fields).toEqual({ manager_id: 'm7' });
    expect('fields' in dealToAddOrder(deal({ custom_fields: {} }))).toBe(false);
    expect('fields' in dealToAddOrder(deal())).toBe(false);
  });

  it('sends the money it sends as text in plain decimals: rounding noise below a millionth is "0", never exponent form', () => {
    expect(dealToAddOrder(deal({ price: 0.1 + 0.2 - 0.3, cost: 1e-7 }))).toMatchObject({ price: '0', cost: '0' });
    expect(dealToAddOrder(deal({ price: 0.000001, cost: 999999999999999 }))).toMatchObject({ price: '0.000001', cost: '999999999999999' });
  });

  it('names the field a deal cannot be mapped on', () => {
    expect(() => dealToAddOrder(deal({ price: -1 }))).toThrow(new MappingError('price', '-1 is negative'));
    expect(() => dealToAddOrder(deal({ products: [{ id: 'p', name: 'x', quantity: 1, cost: Number.NaN }] }))).toThrow(new MappingError('products[0].cost', 'NaN is not a finite number'));
    expect(() => dealToAddOrder(deal({ created_at: new Date('nope') }))).toThrow(MappingError);
  });

  it("sends a batch in one add-orders call and reports the orders the service skipped, with what was sent", async () => {
    const service = new FakeTrackerService();
    const tracker = testTracker(await service.start());
    try {
      service.invalidDateIds.add('D-2');
      const items = ['D-1', 'D-2'].map((id) => ({ externalId: id, payload: dealToAddOrder(deal({ id })), known: false }));
      const answer = await dealsHandler.send({ tracker, connectionId: 'c1', log: () => undefined }, items);
      expect(service.callsTo('/project/add-orders')).toHaveLength(1);
      expect(answer.counters).toMatchObject({ uploaded: 2 });
      expect(answer.refused).toEqual([{ externalId: 'D-2', field: 'date_create', reason: expect.stringContaining('skipped_by_invalid_format'), payload: expect.objectContaining({ id: 'D-2' }) }]);
    } finally {
      await tracker.close();
      await service.stop();
    }
  });
});
