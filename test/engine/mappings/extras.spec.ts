import { clientsMapping, clientToImportClient } from '../../../src/engine/mappings/clients';
import { eventsMapping, eventToBulkItem } from '../../../src/engine/mappings/events';
import { expenseToRequest } from '../../../src/engine/mappings/expenses';
import { leadToCreateRequest } from '../../../src/engine/mappings/leads';
import { MappingError } from '../../../src/engine/mappings/mapping-error';
import { mediaPlanToRequest } from '../../../src/engine/mappings/mediaplans';

describe('clients and the extra streams: their mappings and checks', () => {
  it('clients: several phones or emails joined by a comma, blanks dropped', () => {
    const client = clientToImportClient({ id: 'c1', name: 'Olga', phones: [' +7900 ', ''], emails: ['a@x.ru', 'b@x.ru'], company: 'ACME' });
    expect(client).toEqual({ id: 'c1', name: 'Olga', phone: '+7900', email: 'a@x.ru,b@x.ru', company: 'ACME' });
    expect(clientsMapping.check(client)).toEqual([]);
  });

  it('expenses and media plans keep their channel and period; media plan metrics only where given', () => {
    expect(expenseToRequest({ id: 'e1', channel: 'yandex', from_date: '2025-03-01', to_date: '2025-03-31', marketing_cost: 500, timezone: 'Europe/Moscow' })).toEqual({
      source: 'yandex',
      from_date: '2025-03-01',
      to_date: '2025-03-31',
      marketing_cost: 500,
      timezone: 'Europe/Moscow',
    });
    expect(mediaPlanToRequest({ id: 'p1', channel: 'vk', date_from: '2025-03-01', date_to: '2025-03-31', leads: 40, cpl: null })).toEqual({
      channel: 'vk',
      date_from: '2025-03-01',
      date_to: '2025-03-31',
      metrics: [{ name: 'leads', value: 40 }],
    });
  });

  it('leads carry their dates with an explicit offset and name a bad one', () => {
    const lead = { id: 'l1', title: 'Call back', name: 'Ivan', created_at: new Date('2025-03-10T09:00:00Z'), status: '1', price: 100 };
    expect(leadToCreateRequest(lead)).toEqual({ creation_date: '2025-03-10 09:00:00+0000', name: 'Ivan', title: 'Call back', status: '1', price: 100 });
    expect(() => leadToCreateRequest({ ...lead, paid_at: new Date('nope') })).toThrow(new MappingError('paid_at', 'Invalid Date is not a valid date'));
  });

  it('events need a name; the visit is sent as text', () => {
    expect(eventToBulkItem({ id: 'ev1', name: 'call', visit_id: '1000001', data: { k: 1 } })).toEqual({ name: 'call', visit: '1000001', data: { k: 1 } });
    expect(eventsMapping.check(eventToBulkItem({ id: 'ev2', name: '' }))).toEqual([{ id: '', field: 'name', reason: 'is required' }]);
  });
});
