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

  it('sends an empty price or cost as null, so the service clears it; leaves out one the source does not have, and an empty name, status or client', () => {
    const cleared = dealToAddOrder(deal({ price: null, cost: null, title: null, status: null, client_id: null }));
    expect(cleared).toEqual({ id: 'D-1', date_create: '2025-03-10 09:00:00+0000', tracker: null, price: null, cost: null });
    expect(dealsHandler.check(cleared)).toEqual([]);
    const absent = dealToAddOrder(deal({ price: undefined }));
    expect('price' in absent || 'cost' in absent).toBe(false);
  });

  describe('a closed deal without a dated move into its status (closed_at)', () => {
    const created = new Date('2024-01-16T08:00:00Z');
    const closed = new Date('2024-01-17T12:00:00Z');

    it('gets its move into its status at closed_at when it has no history: the service dates the payment then, not at the sync', () => {
      expect(dealToAddOrder(deal({ created_at: created, status: '1', price: 900, closed_at: closed })).history)
        .toEqual([{ date: '2024-01-17 12:00:00+0000', status: '1', price: 900 }]);
      // no price: none sent; a price of null: null
      expect(dealToAddOrder(deal({ status: '2', closed_at: closed })).history).toEqual([{ date: '2024-01-17 12:00:00+0000', status: '2' }]);
      expect(dealToAddOrder(deal({ status: '2', price: null, closed_at: closed })).history).toEqual([{ date: '2024-01-17 12:00:00+0000', status: '2', price: null }]);
    });

    it('gets it among its history, oldest first, when the history has no entry with its status; no entry moves', () => {
      const history = [
        { date: new Date('2024-01-16T08:00:00Z'), status: '0', price: 500 },
        { date: new Date('2024-01-18T09:00:00Z'), status: '5', price: 700 },
      ];
      expect(dealToAddOrder(deal({ status: '1', price: 900, history, closed_at: closed })).history).toEqual([
        { date: '2024-01-16 08:00:00+0000', status: '0', price: 500 },
        { date: '2024-01-17 12:00:00+0000', status: '1', price: 900 },
        { date: '2024-01-18 09:00:00+0000', status: '5', price: 700 },
      ]);
      // an entry of the same time stays before it
      expect(dealToAddOrder(deal({ status: '1', history: [{ date: closed, status: '0' }], closed_at: closed })).history)
        .toEqual([{ date: '2024-01-17 12:00:00+0000', status: '0' }, { date: '2024-01-17 12:00:00+0000', status: '1' }]);
    });

    it('keeps a history that has an entry with its status as it is, whatever closed_at says', () => {
      const history = [{ date: new Date('2024-01-15T10:00:00Z'), status: '1', price: 15000 }];
      expect(dealToAddOrder(deal({ status: '1', price: 15000, history, closed_at: closed })).history)
        .toEqual([{ date: '2024-01-15 10:00:00+0000', status: '1', price: 15000 }]);
    });

    it('an open deal (no closed_at) gets no entry it did not have; nor does a deal without a status', () => {
      expect('history' in dealToAddOrder(deal({ status: '0', price: 10 }))).toBe(false);
      expect(dealToAddOrder(deal({ status: '0', history: [{ date: created, status: '7' }] })).history).toEqual([{ date: '2024-01-16 08:00:00+0000', status: '7' }]);
      expect('history' in dealToAddOrder(deal({ closed_at: closed }))).toBe(false);
      expect('history' in dealToAddOrder(deal({ status: '1', closed_at: null }))).toBe(false);
    });

    it('names closed_at when it is no valid date', () => {
      expect(() => dealToAddOrder(deal({ status: '1', closed_at: new Date('nope') }))).toThrow(new MappingError('closed_at', 'Invalid Date is not a valid date'));
    });
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
