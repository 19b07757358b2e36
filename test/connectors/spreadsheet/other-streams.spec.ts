import type { CustomEvent, Expense, Lead, MediaPlanTarget } from '../../../src/connectors/canonical';
import { readStream, tempDir } from './read-helper';

describe('spreadsheet connector: expenses, media plans, leads and events', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('reads expenses with derived ids and rejects a reversed period', async () => {
    const file = tmp.write('costs.csv', 'channel;from_date;to_date;marketing_cost\nyandex;01.03.2025;31.03.2025;50 000\nvk;10.03.2025;01.03.2025;10\n');
    const { records, rejected } = await readStream<Expense>({ expenses: { path: file } }, 'expenses');
    expect(records).toEqual([
      { id: 'yandex:2025-03-01:2025-03-31', channel: 'yandex', from_date: '2025-03-01', to_date: '2025-03-31', marketing_cost: 50000, timezone: null },
    ]);
    expect(rejected).toEqual([expect.objectContaining({ ref: 'costs.csv row 3', field: 'to_date', reason: '2025-03-01 is before from_date 2025-03-10' })]);
  });

  it('reads media plan targets by month and by date_from', async () => {
    const byMonth = tmp.write('plan.csv', 'channel,month,leads,marketing_cost,cpl\nyandex,2025-03,100,50000,500\nvk,04.2025,10,,\n');
    const { records } = await readStream<MediaPlanTarget>({ mediaplans: { path: byMonth } }, 'mediaplans');
    expect(records).toEqual([
      { id: 'yandex:2025-03-01', channel: 'yandex', date_from: '2025-03-01', date_to: '2025-03-31', leads: 100, marketing_cost: 50000, cpl: 500 },
      { id: 'vk:2025-04-01', channel: 'vk', date_from: '2025-04-01', date_to: '2025-04-30', leads: 10, marketing_cost: null, cpl: null },
    ]);
    const byDates = tmp.write('plan2.csv', 'channel,date_from,date_to,leads\nyandex,01.02.2024,29.02.2024,5\nvk,01.02.2024,28.02.2024,5\n');
    const second = await readStream<MediaPlanTarget>({ mediaplans: { path: byDates } }, 'mediaplans');
    expect(second.records.map((r) => [r.date_from, r.date_to])).toEqual([['2024-02-01', '2024-02-29']]);
    expect(second.rejected[0]).toMatchObject({ field: 'date_to', reason: '2024-02-28 is not the last day of the month of 2024-02-01 (2024-02-29)' });
  });

  it('reads leads through status_map and rejects unknown lead statuses', async () => {
    const file = tmp.write(
      'leads.csv',
      'id,title,name,created_at,status,email,phone,price,visit_id,text\nL1,Call back,Anna,10.03.2025 12:00,won,a@example.com,+7900,100,55,hi\nL2,,Bob,10.03.2025,weird,,,,,\n',
    );
    const { records, rejected } = await readStream<Lead>(
      { leads: { path: file, status_map: { won: '1', lost: '2', new: '0' } } },
      'leads',
    );
    expect(records).toEqual([
      {
        id: 'L1', title: 'Call back', name: 'Anna', created_at: new Date('2025-03-10T09:00:00Z'), status: '1', email: 'a@example.com',
        phone: '+7900', price: 100, paid_at: null, visit_id: '55', text: 'hi',
      },
    ]);
    expect(rejected[0]).toMatchObject({ id: 'L2', field: 'status' });
  });

  it('reads events with data from other columns and a JSON data column; ids default to a hash of the row', async () => {
    const file = tmp.write('events.csv', 'name,visit_id,data,amount\nsignup,123,"{""plan"":""pro""}",10\nsignup,124,,\n');
    const { records } = await readStream<CustomEvent>({ events: { path: file } }, 'events');
    // the ids these rows had since events were read: a new id would be a second copy of the event in the service
    expect(records).toEqual([
      { id: 'AfcMKMNTZMG', name: 'signup', visit_id: '123', data: { plan: 'pro', amount: '10' } },
      { id: '1iIRqIbfUSB', name: 'signup', visit_id: '124', data: null },
    ]);
  });
});
