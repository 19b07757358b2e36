import { Readable } from 'node:stream';
import { TrackerApiError, TrackerClient, toFilters, fileNameFromContentDisposition } from '../../src/tracker';
import { ScriptedServer } from './scripted-server';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

describe('filters and file answers', () => {
  let server: ScriptedServer;
  let client: TrackerClient;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  beforeEach(() => {
    server.reset();
    client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1', rateLimit: 'off', retries: 1, retryBaseMs: 1 });
  });
  afterEach(() => client.close());
  afterAll(() => server.close());

  it('toFilters: none → no filter, one → flat array of triples, several → and', () => {
    expect(toFilters([])).toBeUndefined();
    expect(toFilters([['status', '=', '1']])).toEqual([['status', '=', '1']]);
    expect(toFilters([['status', '=', '1'], ['creation_date', '>=', '2024-01-01']])).toEqual({
      and: [['status', '=', '1'], ['creation_date', '>=', '2024-01-01']],
    });
  });

  it('never sends a single condition wrapped in `and` (the service answers 500 to it)', async () => {
    server.respondWith((req) => {
      const filters = (req.body as { filters?: unknown }).filters as { and?: unknown[] } | undefined;
      const lone = !!filters && !Array.isArray(filters) && filters.and?.length === 1;
      return lone ? { status: 500, body: { status: 'error', error: 'internal' } } : { body: { status: 'success', data: [], total: 0 } };
    });
    await client.orders.list({ filters: { and: [['status', '=', '1']] }, limit: 10 });
    await client.clients.list({ filters: { and: [['name', 'like', 'A']] } });
    await client.visits.list({ filters: { and: [['source.system_name', '=', 'organic']] } });
    await client.emailtracking.list({ filters: { and: [['date', '>', '2024-01-01']] } });
    expect(server.requests).toHaveLength(4);
    expect((server.requests[0].body as { filters: unknown }).filters).toEqual([['status', '=', '1']]);
    await client.orders.list({ filters: { and: [['status', '=', '1'], ['status', '!=', '2']] } });
    expect((server.requests[4].body as { filters: unknown }).filters).toEqual({ and: [['status', '=', '1'], ['status', '!=', '2']] });
  });

  it('returns an attachment as a stream with the file name from Content-Disposition', async () => {
    server.script({
      body: Buffer.from('PDF-BYTES'),
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="invoice 7.pdf"' },
    });
    const file = await client.emailtracking.attachment(15, 99);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/project/emailtracking/email/15/attachment/99' });
    expect(file.fileName).toBe('invoice 7.pdf');
    expect(file.contentType).toBe('application/pdf');
    expect(await text(file.stream)).toBe('PDF-BYTES');
  });

  it('returns the billing Excel export with a UTF-8 file name', async () => {
    server.script({
      body: Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      headers: {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': "attachment; filename=\"tx.xlsx\"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82.xlsx",
      },
    });
    const file = await client.billing.exportExcel({ period: { from: '2024-01-01T00:00:00.000Z', to: '2024-02-01T00:00:00.000Z' } });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/user/billing/transactions/list/export/excel' });
    expect(server.requests[0].query.get('project')).toBe('1');
    expect(file.fileName).toBe('отчёт.xlsx');
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(Buffer.from(c));
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });

  it('turns a JSON error instead of a file into a TrackerApiError', async () => {
    server.script({ status: 404, body: { status: 'error', error: 'attachment_not_found', description: 'withheld by setting' } });
    const error = await client.emailtracking.attachment(1, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackerApiError);
    expect(error).toMatchObject({ httpStatus: 404, error: 'attachment_not_found', description: 'withheld by setting' });
    server.script({ status: 200, body: { status: 'error', error: 'denied' } });
    await expect(client.emailtracking.attachment(1, 2)).rejects.toMatchObject({ httpStatus: 200, error: 'denied' });
  });

  it('parses the Content-Disposition forms', () => {
    expect(fileNameFromContentDisposition('attachment; filename=plain.txt')).toBe('plain.txt');
    expect(fileNameFromContentDisposition('attachment; filename="a \\"q\\".txt"')).toBe('a "q".txt');
    expect(fileNameFromContentDisposition("attachment; filename*=iso-8859-1'en'%A3rates.txt")).toBe('£rates.txt');
    expect(fileNameFromContentDisposition('inline')).toBeNull();
    expect(fileNameFromContentDisposition(undefined)).toBeNull();
  });
});
