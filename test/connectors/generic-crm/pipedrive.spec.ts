import connector from '../../../connectors/generic-crm';
import { releaseSourceLimits } from '../../../connectors/generic-crm/http/source-limits';
import { CrmServer, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../../fixtures/crm/pipedrive';
import { readAll } from '../read-helper';

describe('generic-crm preset pipedrive', () => {
  let crm: CrmServer;
  beforeAll(async () => (crm = await startCrmServer(pipedrive.handler)));
  afterAll(async () => {
    await crm.close();
    releaseSourceLimits();
  });

  it.each(['managers', 'clients', 'deals'] as const)('reads %s field by field', async (stream) => {
    const { records, rejected } = await readAll(connector, stream, pipedrive.settings(crm.url));
    expect(rejected).toEqual([]);
    expect(records).toEqual(pipedrive.expected[stream]);
  });

  it('pages by additional_data.pagination and applies the window itself (v1 has no changed-since filter)', async () => {
    crm.requests.length = 0;
    const since = new Date('2024-01-15T11:30:00Z');
    const { records } = await readAll(connector, 'deals', pipedrive.settings(crm.url), { since, until: new Date('2024-01-16T00:00:00Z') });
    expect(records.map((r) => r.id)).toEqual(['1002']);
    const lists = crm.requests.filter((r) => r.path === '/api/v1/deals');
    expect(lists.map((r) => r.query.get('start'))).toEqual([null, '2']);
    expect(lists[0].query.get('limit')).toBe('500');
  });

  it('waits for Retry-After on a 429 burst answer, then goes on', async () => {
    const burst = await startCrmServer(pipedrive.createHandler({ burstLimitOnce: true }));
    try {
      const started = Date.now();
      const { records } = await readAll(connector, 'deals', pipedrive.settings(burst.url), { connectionId: 'pd-burst' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(records).toEqual(pipedrive.expected.deals);
    } finally {
      await burst.close();
    }
  });
});
