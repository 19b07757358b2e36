import connector from '../../../connectors/generic-crm';
import * as bitrix24 from '../../fixtures/crm/bitrix24';
import { CrmServer, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll } from '../read-helper';

describe('generic-crm preset bitrix24', () => {
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(bitrix24.handler)));
  afterAll(async () => {
    await crm.close();
  });

  it.each(['managers', 'clients', 'deals'] as const)('reads %s field by field', async (stream) => {
    const { records, rejected } = await readAll(connector, stream, bitrix24.settings(crm.url));
    expect(rejected).toEqual([]);
    expect(records).toEqual(bitrix24.expected[stream]);
  });

  it('calls crm.item.list (not the deprecated crm.deal.list) with the webhook code in the path, filters by >=updatedTime in the portal zone and pages by start/next', async () => {
    crm.requests.length = 0;
    const since = new Date('2024-01-15T11:30:00Z');
    const { records } = await readAll(connector, 'deals', bitrix24.settings(crm.url), { since });
    expect(records.map((r) => r.id)).toEqual(['202', '203']);
    const lists = crm.requests.filter((r) => r.path.endsWith('crm.item.list.json'));
    expect(lists[0].path).toBe(`/rest/1/${bitrix24.TOKEN}/crm.item.list.json`);
    expect(Object.fromEntries(lists[0].query)).toEqual({
      entityTypeId: '2', 'select[]': '*', useOriginalUfNames: 'Y', 'filter[>=updatedTime]': '2024-01-15T14:30:00+03:00', 'order[updatedTime]': 'ASC', 'order[id]': 'ASC',
    });
    expect(lists.map((r) => r.query.get('start'))).toEqual([null]);
    const methods = new Set(crm.requests.map((r) => r.path.split('/').pop()));
    expect([...methods].sort()).toEqual(['batch.json', 'crm.item.fields.json', 'crm.item.list.json', 'crm.stagehistory.list.json']);
    // the batches hold the products' reads only: product rows (crm.item.productrow.list, not crm.deal.productrows.get) and catalog
    const commands = crm.requests.filter((r) => r.path.endsWith('batch.json'))
      .flatMap((r) => Object.values(r.body.cmd as Record<string, string>).map((command) => command.split('?')[0]));
    expect([...new Set(commands)].sort()).toEqual(['catalog.product.get', 'catalog.section.get', 'crm.item.productrow.list']);
  });

  it('retries 503 QUERY_LIMIT_EXCEEDED and then reads everything', async () => {
    const limited = await startCrmServer(bitrix24.createHandler({ limitExceededOnce: true }));
    try {
      const { records } = await readAll(connector, 'deals', bitrix24.settings(limited.url), { connectionId: 'b24-limited' });
      expect(records).toEqual(bitrix24.expected.deals);
      const calls = limited.requests.filter((r) => r.path.endsWith('crm.item.list.json'));
      // a first read goes by id with start=-1 (huge-data.md): one page of 50, asked again after the 503
      expect(calls.map((r) => r.query.get('start'))).toEqual(['-1', '-1']);
    } finally {
      await limited.close();
    }
  });

  it('names the connection and stream, never the webhook code, when the code is wrong', async () => {
    const read = readAll(connector, 'managers', { ...bitrix24.settings(crm.url), token: 'wrong-code-000' }, { connectionId: 'b24' });
    await expect(read).rejects.toThrow(/^connection b24, stream managers, GET http:\/\/127\.0\.0\.1:\d+\/rest\/1\/\*\*\*\/user\.get\.json: the CRM refused the connection's credentials \(settings\.token \/ settings\.auth\): HTTP 401: .*INVALID_CREDENTIALS/);
  });

  it('reports a missing webhook code as a configuration error of the settings, before any request', async () => {
    const { token: _token, ...withoutToken } = bitrix24.settings(crm.url);
    const before = crm.requests.length;
    await expect(readAll(connector, 'deals', withoutToken, { connectionId: 'b24' })).rejects.toThrow(
      'settings.token: is required: the bitrix24 preset needs a token (auth webhook_path)',
    );
    expect(crm.requests).toHaveLength(before);
  });
});
