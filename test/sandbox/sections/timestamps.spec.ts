import { asResponseTimestamp } from '../../../src/sandbox/sections/common/service-time';
import { SectionClient, UTC_TIMESTAMP } from './section-client';

const PLAIN_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;
const PERIOD = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };

/** Every value at `path` (`data[].date`; `[]` walks an array) of an answer. */
function valuesAt(node: unknown, path: string): unknown[] {
  if (path === '') return [node];
  const [head, ...rest] = path.split('.');
  const key = head.replace(/\[\]$/, '');
  const child = key === '' ? node : (node as Record<string, unknown> | undefined)?.[key];
  const children = head.endsWith('[]') ? (Array.isArray(child) ? child : []) : [child];
  return children.flatMap((item) => valuesAt(item, rest.join('.')));
}

/**
 * Conventions 7 across the sections: timestamps in answers are `YYYY-MM-DDTHH:MM:SS+0000`
 * unless the specification states another form (proxy leads and the expense add answer:
 * `YYYY-MM-DD HH:MM:SS`; media plan and expense list bounds: plain days).
 */
describe('sandbox sections: date forms of the answers (demo seed)', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  const timestampFields: [string, () => Promise<unknown>, string[]][] = [
    ['existing scripts', () => post('project/calltracking/script/list', { is_deleted: 0 }), ['data[].creation_date']],
    ['deleted scripts', () => post('project/calltracking/script/list', { is_deleted: 1 }), ['data[].creation_date']],
    ['leads', () => post('project/leads/lead/list', { period: PERIOD, sort_field: 'id' }), ['leads[].creation_date']],
    ['speech calls', () => post('project/speech/call/list', { period: PERIOD }), ['data[].date']],
    ['tracked e-mails', () => post('project/emailtracking/email/list', { extend: ['visit'] }), ['data[].date', 'data[].visit.date']],
    ['trigger log', async () => (await sandbox.get('project/events/log')).data, ['items[].event_date']],
    ['billing', () => post('user/billing/transactions/list', { period: PERIOD }), ['data[].date']],
  ];

  async function post(path: string, body: unknown): Promise<unknown> {
    const answer = await sandbox.post(path, body);
    expect([path, answer.status]).toEqual([path, 200]);
    return answer.data;
  }

  it.each(timestampFields)('%s answer timestamps as YYYY-MM-DDTHH:MM:SS+0000', async (_name, fetch, paths) => {
    const answer = await fetch();
    for (const path of paths) {
      const values = valuesAt(answer, path).filter((value) => value !== null);
      expect([path, values.length > 0]).toEqual([path, true]);
      for (const value of values) expect([path, value]).toEqual([path, expect.stringMatching(UTC_TIMESTAMP)]);
    }
  });

  it('keeps the forms the specification states otherwise', async () => {
    const proxyLeads = valuesAt((await sandbox.get('project/proxy-leads', { period: '2000-01-01-2100-01-01' })).data, 'ProxyLeads[].creation_date');
    expect(proxyLeads.length).toBeGreaterThan(0);
    for (const value of proxyLeads) expect(value).toMatch(PLAIN_DATE_TIME);
    const expenseDays = valuesAt(await post('project/analytics/source/cost/list', {}), '[].from_date');
    expect(expenseDays.length).toBeGreaterThan(0);
    for (const value of expenseDays) expect(value).toMatch(PLAIN_DATE);
  });

  it('normalizes stored date texts to the response form (read at UTC+03:00 without offset)', () => {
    expect(asResponseTimestamp('2024-05-01T07:00:00+0000')).toBe('2024-05-01T07:00:00+0000');
    expect(asResponseTimestamp('2024-05-01 10:00:00')).toBe('2024-05-01T07:00:00+0000');
    expect(asResponseTimestamp('2024-05-01 10:00:00+0000')).toBe('2024-05-01T10:00:00+0000');
    expect(asResponseTimestamp('not a date')).toBe('not a date');
  });
});
