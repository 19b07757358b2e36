import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { writeFileSync } from 'fs';
import { join } from 'path';
import { stringify } from 'yaml';
import { api, RunJson, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from '../daemon/daemon-harness';
import { InProcessSandbox } from '../faults/support/sheet-sync';
import * as bitrix24 from '../fixtures/crm/bitrix24';
import { customSettings } from '../connectors/generic-crm/custom-source';
import { badAnswers, CrmServer, FixtureAnswer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { SHEETS } from './support/corpus';
import { generatedInputs } from './support/generated-inputs';

const TOKEN = 'bad-input-admin-token';
/** A key as a CRM's generator makes them: `/`, `+`, `=` and `$` are escaped by JSON or URL encoding when echoed. */
const ECHOED_KEY = 'beta+qp/tok=en$$XY';
/**
 * A PHP CRM's 500 that echoes the key: json_encode escapes `/` by default; the request as it was encoded; and
 * an inner JSON document as a string (escaped twice).
 */
const ECHOING_ANSWER = '{"error":"invalid key beta+qp\\/tok=en$$XY","request":"apiKey=beta%2Bqp%2Ftok%3Den%24%24XY",' +
  '"detail":"{\\"key\\":\\"beta+qp\\\\/tok=en$$XY\\"}"}';

interface SourceCase {
  connection: string;
  /** the run's error: names the stream and the file, URL or CRM, and says what is wrong */
  error: RegExp;
}

/**
 * Inputs that break a whole source, run by the real daemon (createDaemonApp): each run fails with a clear
 * error naming the stream and the file, URL or CRM; the daemon stays up; a good connection triggered after
 * them still syncs. Secrets never appear in the errors.
 */
describe('bad-input corpus: broken sources fail their run, not the daemon', () => {
  const dir = tempDir('bad-sources');
  let sandbox: InProcessSandbox;
  let project: string;
  let pages: Server;
  let pagesUrl: string;
  let cutCrm: CrmServer;
  let errorCrm: CrmServer;
  let echoCrm: CrmServer;
  const alertBodies: string[] = [];
  let daemon: RunningDaemon;
  const cases: SourceCase[] = [];

  beforeAll(async () => {
    sandbox = await InProcessSandbox.start();
    project = await sandbox.project('bad-sources');
    pages = await startPageServer(alertBodies);
    pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    cutCrm = await startCrmServer(bitrixAnswering(badAnswers.cutPage));
    errorCrm = await startCrmServer(bitrixAnswering(badAnswers.errorObjectWith200));
    echoCrm = await startCrmServer(() => ({ status: 500, raw: ECHOING_ANSWER, headers: { 'content-type': 'application/json' } }));
    const xlsx = await generatedInputs.truncatedXlsx(dir.path);
    const empty = join(dir.path, 'empty.csv');
    writeFileSync(empty, '');

    const sheet = (path: string, format?: string) => ({ deals: { path, ...(format ? { format } : {}) } });
    // a sheet set whose managers export came out empty and whose expenses link answers a page: its clients and deals are fine
    const partly = (name: string, lines: string[]) => writeFileSync(join(dir.path, name), [...lines, ''].join('\n'));
    partly('pb-clients.csv', ['id,name,phone', 'pc-1,Anna,+7 900 000 00 01', 'pc-2,Boris,+7 900 000 00 02']);
    partly('pb-deals.csv', ['id,title,status,created_at,price,client_id,manager_id', 'pb-1,One,0,01.03.2025,100,pc-1,m1', 'pb-2,Two,0,02.03.2025,200,pc-2,m1']);
    const partlyBroken = {
      managers: { path: empty }, clients: { path: join(dir.path, 'pb-clients.csv') }, deals: { path: join(dir.path, 'pb-deals.csv') },
      expenses: { path: `${pagesUrl}/expenses.csv` },
    };
    const connections = [
      { id: 'html-page', connector: 'spreadsheet', settings: sheet(`${pagesUrl}/export.csv`) },
      { id: 'truncated-xlsx', connector: 'spreadsheet', settings: sheet(xlsx) },
      { id: 'missing-file', connector: 'spreadsheet', settings: sheet(join(dir.path, 'no-such-deals.csv')) },
      { id: 'empty-file', connector: 'spreadsheet', settings: sheet(empty) },
      { id: 'unclosed-quote', connector: 'spreadsheet', settings: sheet(join(SHEETS, 'unbalanced-quote.csv')) },
      { id: 'repeated-price', connector: 'spreadsheet', settings: sheet(join(SHEETS, 'repeated-price.csv')) },
      { id: 'csv-named-xlsx', connector: 'spreadsheet', settings: sheet(generatedInputs.csvNamedXlsx(dir.path)) },
      { id: 'crm-cut-page', connector: 'generic-crm', settings: bitrix24.settings(cutCrm.url) },
      { id: 'crm-error-200', connector: 'generic-crm', settings: bitrix24.settings(errorCrm.url) },
      { id: 'crm-echoes-key', connector: 'generic-crm', settings: customSettings(echoCrm.url, {}, { token: ECHOED_KEY, auth: { type: 'query_param', param: 'apiKey' } }) },
      { id: 'good', connector: 'spreadsheet', settings: sheet(join(SHEETS, 'negative-price.csv')) },
      { id: 'partly-broken', connector: 'spreadsheet', settings: partlyBroken },
    ];
    cases.push(
      { connection: 'html-page', error: /^stream deals: http:\/\/127\.0\.0\.1:\d+\/export\.csv answered an HTML page \(text\/html/ },
      { connection: 'truncated-xlsx', error: /^stream deals: truncated\.xlsx: cannot read the XLSX file: the XLSX file is truncated: its [\d,]+ bytes end before the archive's directory/ },
      { connection: 'missing-file', error: /^stream deals: file \S*no-such-deals\.csv does not exist/ },
      { connection: 'empty-file', error: /^stream deals: empty\.csv is an empty file \(0 bytes\)/ },
      // no row after a quote that never closes can be read: the run fails, naming the row where the quote opened
      { connection: 'unclosed-quote', error: /^stream deals: unbalanced-quote\.csv row 3: a quote opened in this row is never closed/ },
      // which of two price columns is the price is not guessed
      {
        connection: 'csv-named-xlsx',
        error: /^stream deals: export\.xlsx: cannot read the XLSX file: it is not an XLSX file \(an XLSX is a ZIP archive\): it starts like text \(a CSV saved under an \.xlsx name\? then set format: csv\)$/,
      },
      { connection: 'repeated-price', error: /^stream deals: repeated-price\.csv: the header has two price columns, E \("price"\) and G \("price"\)/ },
      {
        connection: 'crm-cut-page',
        error: /^connection crm-cut-page, stream deals, GET http:\/\/127\.0\.0\.1:\d+\/rest\/1\/\*\*\*\/crm\.item\.list\S*: HTTP 200 answer is not valid JSON .*the page was cut/,
      },
      {
        connection: 'crm-error-200',
        // the error object names the token: the CRM refused the credentials
        error: /^connection crm-error-200, stream deals, GET \S*crm\.item\.list\S*: the CRM refused the connection's credentials \(settings\.token \/ settings\.auth\): HTTP 200 answer carries an error object \(error="ACCESS_DENIED": Access denied/,
      },
      // the key, however the CRM escaped it, is masked in the error (and in the log line and the alert, below)
      { connection: 'crm-echoes-key', error: /^connection crm-echoes-key, stream deals, GET \S*apiKey=\*\*\*\S*: HTTP 500.*invalid key \*\*\*/ },
    );
    const configFile = join(dir.path, 'config.yaml');
    writeFileSync(configFile, stringify({
      server: { port: 0 },
      data_dir: join(dir.path, 'data'),
      tracker: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, project, rate_limit: 'off', retries: 1, timeout_ms: 5_000 },
      log: { level: 'warn', format: 'json' },
      alerts: [
        { id: 'echo', type: 'webhook', url: `${pagesUrl}/alert`, connections: ['crm-echoes-key'] },
        { id: 'partly', type: 'webhook', url: `${pagesUrl}/alert`, connections: ['partly-broken'], events: ['run_failed'] },
      ],
      connections,
    }));
    daemon = await startDaemon({ ADMIN_TOKEN: TOKEN }, configFile);
  });

  afterAll(async () => {
    await daemon?.stop();
    await Promise.all([cutCrm?.close(), errorCrm?.close(), echoCrm?.close()]);
    await new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)));
    await sandbox?.close();
    dir.remove();
  });

  it('each broken source fails its run with an error naming the stream and the source; the daemon stays up', async () => {
    const runs: Record<string, RunJson> = {};
    for (const c of cases) runs[c.connection] = await syncAndWait(c.connection);
    for (const c of cases) {
      expect({ connection: c.connection, status: runs[c.connection].status, error: runs[c.connection].error }).toEqual({
        connection: c.connection, status: 'failed', error: expect.stringMatching(c.error),
      });
    }
    const errors = JSON.stringify(runs);
    for (const secret of [bitrix24.TOKEN, sandbox.apiKey]) expect(errors).not.toContain(secret);
    await waitFor(() => alertBodies.some((body) => body.includes('crm-echoes-key')), 5_000);
    // the API's answer, the JSON log lines and the alert: no form of the echoed key in any of them
    for (const [where, text] of [['runs', errors], ['log', daemon.output.text()], ['alert', alertBodies.join('\n')]]) {
      expect({ where, forms: echoedForms(text) }).toEqual({ where, forms: [] });
    }
    expect((await api(daemon.url, null, '/health')).status).toBe(200);
    for (const c of cases) {
      const connection = await api<{ state: string }>(daemon.url, TOKEN, `/api/connections/${c.connection}`);
      expect({ id: c.connection, state: connection.body.state }).toEqual({ id: c.connection, state: 'failing' });
    }
  }, 60_000);

  it('a local file that does not exist is a warning at start-up naming the connection and the path; the daemon started', async () => {
    const lines = daemon.output.text().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string });
    const warnings = lines.map((line) => line.msg).filter((msg) => msg.startsWith('connection ') && msg.includes('does not exist'));
    expect(warnings).toEqual([
      `connection missing-file: settings.deals.path: file ${join(dir.path, 'no-such-deals.csv')} does not exist; ` +
        'the deals stream fails until it does',
    ]);
    expect((await api(daemon.url, null, '/health')).status).toBe(200);
  });

  it('the next connection still runs: its valid rows arrive, its bad row is rejected', async () => {
    const run = await syncAndWait('good');
    expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: null });
    expect(run.streams.deals).toMatchObject({ sent: 1, rejected: 1 });
    expect(await sandbox.orderIds(project)).toEqual(['ng-1']);
  }, 30_000);

  it('a broken managers file and expenses link fail their streams alone: clients and deals sync, the run fails naming all four', async () => {
    const run = await syncAndWait('partly-broken');
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(new RegExp(
      '^stream managers: empty\\.csv is an empty file \\(0 bytes\\).*; stream expenses: http://127\\.0\\.0\\.1:\\d+/expenses\\.csv answered an HTML page .*' +
        '; the run went on without them: synced clients, deals$',
    ));
    expect(run.streams).toMatchObject({ clients: { read: 2, sent: 2 }, deals: { read: 2, sent: 2 } });
    expect((await sandbox.orderIds(project)).filter((id) => id.startsWith('pb-')).sort()).toEqual(['pb-1', 'pb-2']);
    // GET /api/runs/:id and what the status page reads: failing, its last run the partly synced one
    expect((await api<RunJson>(daemon.url, TOKEN, `/api/runs/${run.id}`)).body).toMatchObject({ status: 'failed', error: run.error, streams: run.streams });
    const shown = await api<{ state: string; last_run: RunJson }>(daemon.url, TOKEN, '/api/connections/partly-broken');
    expect(shown.body).toMatchObject({ state: 'failing', last_run: { id: run.id, status: 'failed', error: run.error } });
    await waitFor(() => alertBodies.some((body) => body.includes('partly-broken') && body.includes('run_failed') && body.includes('synced clients, deals')), 5_000);
  }, 30_000);

  async function syncAndWait(connection: string): Promise<RunJson> {
    const trigger = await api<{ run_id: number }>(daemon.url, TOKEN, `/api/connections/${connection}/sync`, { method: 'POST' });
    if (trigger.status !== 202) throw new Error(`POST sync ${connection} answered ${trigger.status}: ${JSON.stringify(trigger.body)}`);
    return waitForFinishedRun(daemon.url, TOKEN, connection, trigger.body.run_id, 20_000);
  }
});

/** The forms of ECHOED_KEY found in `text`: whole, or any run of it its escapes could not split ("tok=en"). */
function echoedForms(text: string): string[] {
  return ['beta+qp', 'tok=en', 'en$$XY', 'beta%2Bqp', 'tok%3Den', 'en%24%24XY'].filter((form) => text.includes(form));
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  for (const until = Date.now() + timeoutMs; !done();) {
    if (Date.now() > until) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A web server whose "CSV export" is an HTML error page, as a proxy or an expired share link answers; it keeps
 * the bodies POSTed to it (the alert webhook's) in `posted`.
 */
async function startPageServer(posted: string[]): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        posted.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Bitrix24 as documented, except that the deal list answers `answer` (a cut page, or 200 with an error). */
function bitrixAnswering(answer: FixtureAnswer) {
  const normal = bitrix24.createHandler();
  return (request: Parameters<typeof normal>[0], server: Parameters<typeof normal>[1]): FixtureAnswer =>
    /\/crm\.item\.list(\.json)?$/.test(request.path) && request.query.get('entityTypeId') === '2' ? answer : normal(request, server);
}
