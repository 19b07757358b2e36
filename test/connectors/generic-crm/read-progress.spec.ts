import connector from '../../../connectors/generic-crm';
import { CrmServer, FixtureHandler, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll } from '../read-helper';
import { customSettings, items } from './custom-source';

const ALL = items(1, 7);

/** With paginator.total_path, each page says how far through the CRM's total the read is (Page.progress). */
describe('generic-crm read progress', () => {
  let server: CrmServer;
  afterEach(() => server?.close());

  const offsetPages: FixtureHandler = (r) => {
    const offset = Number(r.query.get('offset'));
    return { body: { items: ALL.slice(offset, offset + 3), meta: { total: ALL.length } } };
  };

  it('reports records fetched of the total the answer gives', async () => {
    server = await startCrmServer(offsetPages);
    const paginator = { type: 'offset', size_param: 'limit', page_size: 3, total_path: 'meta.total' };
    const { pages, records } = await readAll(connector, 'deals', customSettings(server.url, { paginator }));
    expect(records).toHaveLength(7);
    expect(pages.map((p) => p.progress)).toEqual([
      { done: 3, total: 7, unit: 'records' },
      { done: 6, total: 7, unit: 'records' },
      { done: 7, total: 7, unit: 'records' },
    ]);
  });

  it('says nothing without total_path, or when the answer has no number there', async () => {
    server = await startCrmServer(offsetPages);
    const plain = await readAll(connector, 'deals', customSettings(server.url, { paginator: { type: 'offset', size_param: 'limit', page_size: 3 } }));
    expect(plain.pages.every((p) => p.progress === undefined)).toBe(true);
    const missing = await readAll(
      connector,
      'deals',
      customSettings(server.url, { paginator: { type: 'offset', size_param: 'limit', page_size: 3, total_path: 'meta.count' } }),
    );
    expect(missing.records).toHaveLength(7);
    expect(missing.pages.every((p) => p.progress === undefined)).toBe(true);
  });
});
