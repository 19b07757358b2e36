import connector from '../../../connectors/generic-crm';
import { CrmServer, FixtureHandler, startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll } from '../read-helper';
import { customSettings, items } from './custom-source';

const ALL = items(1, 5);

async function withServer<T>(handler: FixtureHandler, run: (server: CrmServer) => Promise<T>): Promise<T> {
  const server = await startCrmServer(handler);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

const ids = (records: { id: string }[]) => records.map((r) => r.id);

describe('generic-crm paginators', () => {
  it('an answer without the records path fails the read (a changed answer is not an empty page); a null list is an empty one', async () => {
    await withServer(() => ({ body: { result: ALL } }), async (server) => {
      await expect(readAll(connector, 'deals', customSettings(server.url), { connectionId: 'crm' })).rejects.toThrow(
        /the answer has no records at "items" \(the stream's records path\): has the CRM's answer changed\? Its keys: result/,
      );
    });
    await withServer(() => ({ body: { items: null } }), async (server) => {
      expect((await readAll(connector, 'deals', customSettings(server.url))).records).toEqual([]);
    });
  });

  it('page_number: increments the page and stops on a short page', async () => {
    const handler: FixtureHandler = (r) => {
      const page = Number(r.query.get('p'));
      const size = Number(r.query.get('per_page'));
      return { body: { items: ALL.slice((page - 1) * size, page * size) } };
    };
    await withServer(handler, async (server) => {
      const paginator = { type: 'page_number', page_param: 'p', size_param: 'per_page', page_size: 2 };
      const { records } = await readAll(connector, 'deals', customSettings(server.url, { paginator }));
      expect(ids(records)).toEqual(['1', '2', '3', '4', '5']);
      expect(server.requests.map((r) => r.query.get('p'))).toEqual(['1', '2', '3']);
    });
  });

  it('page_number: stops at the page count the answer gives (no request for an empty page after a full last one)', async () => {
    const FOUR = items(1, 4);
    const handler: FixtureHandler = (r) => {
      const page = Number(r.query.get('page'));
      return { body: { orders: FOUR.slice((page - 1) * 2, page * 2), pagination: { currentPage: page, totalPageCount: 2 } } };
    };
    await withServer(handler, async (server) => {
      const paginator = { type: 'page_number', page_size: 2, size_param: 'limit', total_pages_path: 'pagination.totalPageCount' };
      const { records } = await readAll(connector, 'deals', customSettings(server.url, { records: 'orders', paginator }));
      expect(ids(records)).toEqual(['1', '2', '3', '4']);
      expect(server.requests.map((r) => r.query.get('page'))).toEqual(['1', '2']);
    });
  });

  it('offset: advances by the records received and stops on an empty page when short pages are allowed', async () => {
    const handler: FixtureHandler = (r) => {
      const offset = Number(r.query.get('offset'));
      return { body: { items: ALL.slice(offset, offset + Number(r.query.get('limit'))) } };
    };
    await withServer(handler, async (server) => {
      const paginator = { type: 'offset', size_param: 'limit', page_size: 5, stop_on_short_page: false };
      const { records } = await readAll(connector, 'deals', customSettings(server.url, { paginator }));
      expect(ids(records)).toEqual(['1', '2', '3', '4', '5']);
      expect(server.requests.map((r) => r.query.get('offset'))).toEqual(['0', '5']);
    });
  });

  it('cursor: sends the token from the body back, in the body of a POST', async () => {
    const handler: FixtureHandler = (r) => {
      const start = Number(r.body?.page_token ?? 0);
      const next = start + 2 < ALL.length ? { meta: { next: String(start + 2) } } : { meta: { next: null } };
      return { body: { items: ALL.slice(start, start + 2), ...next } };
    };
    await withServer(handler, async (server) => {
      const definition = {
        request: { method: 'POST', path: '/deals', body: { filter: 'all' } },
        paginator: { type: 'cursor', token_path: 'meta.next', token_param: 'page_token' },
      };
      const { records } = await readAll(connector, 'deals', customSettings(server.url, definition));
      expect(ids(records)).toEqual(['1', '2', '3', '4', '5']);
      expect(server.requests.map((r) => r.body)).toEqual([
        { filter: 'all' },
        { filter: 'all', page_token: '2' },
        { filter: 'all', page_token: '4' },
      ]);
    });
  });

  it('next_url: follows the URL from the body', async () => {
    const handler: FixtureHandler = (r, s) => {
      const page = Number(r.query.get('page') ?? '1');
      const next = page < 3 ? `${s.url}/deals?page=${page + 1}` : null;
      return { body: { items: ALL.slice((page - 1) * 2, page * 2), links: { next } } };
    };
    await withServer(handler, async (server) => {
      const paginator = { type: 'next_url', url_path: 'links.next' };
      const { records } = await readAll(connector, 'deals', customSettings(server.url, { paginator }));
      expect(ids(records)).toEqual(['1', '2', '3', '4', '5']);
      expect(server.requests.map((r) => r.query.get('page'))).toEqual([null, '2', '3']);
    });
  });

  it('link_header: follows rel="next" of the Link header', async () => {
    const handler: FixtureHandler = (r, s) => {
      const page = Number(r.query.get('page') ?? '1');
      const links = [`<${s.url}/deals?page=1>; rel="first"`];
      if (page < 3) links.push(`<${s.url}/deals?page=${page + 1}>; rel="next"`);
      return { body: { items: ALL.slice((page - 1) * 2, page * 2) }, headers: { Link: links.join(', ') } };
    };
    await withServer(handler, async (server) => {
      const { records } = await readAll(connector, 'deals', customSettings(server.url, { paginator: { type: 'link_header' } }));
      expect(ids(records)).toEqual(['1', '2', '3', '4', '5']);
    });
  });

  it('ends on a 204 even when the body promised another page', async () => {
    const handler: FixtureHandler = (r) =>
      r.query.get('page') === '2' ? { status: 204 } : { body: { items: ALL.slice(0, 2), next: '2' } };
    await withServer(handler, async (server) => {
      const paginator = { type: 'cursor', token_path: 'next', token_param: 'page' };
      const { records } = await readAll(connector, 'deals', customSettings(server.url, { paginator }));
      expect(ids(records)).toEqual(['1', '2']);
      expect(server.requests).toHaveLength(2);
    });
  });

  describe('the repeated-request guard', () => {
    const cursorPaginator = { paginator: { type: 'cursor', token_path: 'next', token_param: 'cursor' } };

    it('fails when the server hands out the same cursor twice', async () => {
      let n = 0;
      const handler: FixtureHandler = () => ({ body: { items: [ALL[n++ % 5]], next: 'A' } });
      await withServer(handler, async (server) => {
        const read = readAll(connector, 'deals', customSettings(server.url, cursorPaginator), { connectionId: 'loop' });
        await expect(read).rejects.toThrow(
          /^connection loop, stream deals: the paginator returned to a page it already read in this run \(GET http:\/\/127\.0\.0\.1:\d+\/deals\?cursor=A: request #2 and #3\)/,
        );
        expect(server.requests).toHaveLength(2);
      });
    });

    it('fails on a cycle A → B → A, not only on an immediate repeat', async () => {
      const nextOf: Record<string, string> = { '': 'A', A: 'B', B: 'A' };
      let n = 0;
      const handler: FixtureHandler = (r) => ({ body: { items: [ALL[n++ % 5]], next: nextOf[r.query.get('cursor') ?? ''] } });
      await withServer(handler, async (server) => {
        const read = readAll(connector, 'deals', customSettings(server.url, cursorPaginator), { connectionId: 'cycle' });
        await expect(read).rejects.toThrow(/cursor=A: request #2 and #4\); stopping instead of looping/);
        expect(server.requests.map((r) => r.query.get('cursor'))).toEqual([null, 'A', 'B']);
      });
    });

    it('fails when the server ignores the page parameter and repeats the same page', async () => {
      const handler: FixtureHandler = () => ({ body: { items: ALL.slice(0, 2) } });
      await withServer(handler, async (server) => {
        const paginator = { type: 'page_number', page_size: 2, size_param: 'size' };
        const read = readAll(connector, 'deals', customSettings(server.url, { paginator }), { connectionId: 'deaf' });
        await expect(read).rejects.toThrow(/connection deaf, stream deals: GET .*page=2 \(request #2\) returned the same page as request #1/);
      });
    });
  });
});
