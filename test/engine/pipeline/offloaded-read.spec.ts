import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { SpreadsheetSettings } from '../../../connectors/spreadsheet/settings';
import type { Deal } from '../../../src/connectors/canonical';
import type { Page } from '../../../src/connectors/connector-definition';
import { plainToInstance } from 'class-transformer';
import { dealsMapping } from '../../../src/engine/mappings/deals';
import { closeReadPools } from '../../../src/engine/offload/offload-pool';
import { OffloadedPage, readOffloaded } from '../../../src/engine/offload/offloaded-read';
import { batchBody, PayloadBytes } from '../../../src/engine/pipeline/sending/payload-bytes';

const DEALS = 1_234;
const BATCH = 500;

/**
 * Issue 43: a sheet read on a worker thread (a real thread, the real connector, a real CSV) gives the records the
 * main thread would have mapped itself, in the same order, in chunks of batch_size; a batch that is a whole chunk
 * is sent as the chunk's transferred buffer itself (no copy), any other is joined from its payloads' JSON.
 */
describe('a stream read on a worker thread', () => {
  let dir: string;
  let settings: SpreadsheetSettings;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'offloaded-read-'));
    const lines = ['id,title,status,created_at,updated_at,price,visit_id'];
    for (let i = 0; i < DEALS; i++) {
      const price = i === 7 ? '-5' : String(100 + i); // row 9: the connector rejects it
      lines.push(`D${i},Deal ${i} «ё»,0,2025-03-01 10:00,2025-03-0${1 + (i % 9)} 10:00,${price},${i % 3 ? `v${i}` : ''}`);
    }
    writeFileSync(join(dir, 'deals.csv'), lines.join('\n') + '\n');
    settings = plainToInstance(SpreadsheetSettings, { deals: { path: join(dir, 'deals.csv'), timezone: 'UTC' } });
  });
  afterAll(async () => {
    await closeReadPools();
    rmSync(dir, { recursive: true, force: true });
  });

  const window = { since: null, until: new Date('2030-01-01T00:00:00Z') };
  const logger = { log: () => undefined, warn: () => undefined };

  async function inThread(): Promise<Page[]> {
    const pages: Page[] = [];
    for await (const page of spreadsheetConnector.read('deals', window, { connectionId: 'c', settings, logger, state: null })) pages.push(page);
    return pages;
  }

  async function offloaded(): Promise<OffloadedPage[]> {
    const pages: OffloadedPage[] = [];
    const task = {
      connectorModule: spreadsheetConnector.workerModule!, connectionId: 'c', runId: 1, settings, stream: 'deals' as const, laterStreams: [],
      since: null, until: window.until.getTime(), state: null, mappingVersion: 1, batchSize: BATCH, serialise: true,
    };
    for await (const page of readOffloaded({ threads: 1, signal: new AbortController().signal, logger, task })) pages.push(page);
    return pages;
  }

  it('maps, checks and serialises as the main thread would, in chunks of batch_size', async () => {
    const [here, there] = [await inThread(), await offloaded()];
    const records = here.flatMap((p) => p.records) as Deal[];
    const expected = records.map((r) => {
      const payload = dealsMapping.toPayload(r);
      return { id: r.id, problems: dealsMapping.check(payload).map((p) => p.field), withoutVisit: dealsMapping.withoutVisit!(payload), payload };
    });
    expect(there.map((p) => p.records.length)).toEqual([500, 500, DEALS - 1 - 1000]);
    const got = there.flatMap((page) =>
      page.mapped.map((m, i) => ({
        id: page.records[i].id,
        problems: (m.problems ?? []).map((p) => p.field),
        withoutVisit: m.withoutVisit,
        payload: m.payload instanceof PayloadBytes ? JSON.parse(m.payload.json.toString('utf8')) : m.payload,
      })),
    );
    expect(got).toEqual(expected);
    expect(got.filter((g) => g.withoutVisit)).toHaveLength(Math.ceil(DEALS / 3)); // every third row has no visit_id (D7, rejected, had one)
    expect(there.flatMap((p) => p.hashes)).toEqual(here.flatMap((p) => p.hashes));
    expect(there.flatMap((p) => p.rejected)).toEqual(here.flatMap((p) => p.rejected ?? []));
    expect(there.flatMap((p) => p.rejected ?? []).map((r) => r.id)).toEqual(['D7']);
    // the file's hash, on the last page (its stamp depends on how long ago the file was written: quick-stamp.ts)
    expect(there[there.length - 1].state?.content_hash).toEqual(here[here.length - 1].state?.content_hash);
    expect(there[there.length - 1].state?.content_hash).toEqual(expect.any(String));
    expect(there.flatMap((p) => p.records.map((r) => (r as { updated_at: Date }).updated_at.getTime()))).toEqual(
      records.map((r) => (r as { updated_at: Date }).updated_at.getTime()),
    );
  }, 60_000);

  it('sends a whole chunk as its transferred buffer, and joins any other batch from the payloads', async () => {
    const [first, second] = await offloaded();
    const whole = first.mapped.map((m) => m.payload);
    expect(whole.every((p) => p instanceof PayloadBytes)).toBe(true);
    const body = batchBody(whole);
    expect(body.bytes).toBe((whole[0] as PayloadBytes).body); // the chunk's own buffer, not a copy
    expect((JSON.parse(body.text) as { id: string }[]).map((o) => o.id)).toEqual(first.records.map((r) => r.id));

    const some = [...second.mapped.slice(3, 6), first.mapped[0]].map((m) => m.payload);
    const joined = batchBody(some);
    expect(joined.bytes.buffer).not.toBe((some[0] as PayloadBytes).body.buffer);
    const ids = [...second.records.slice(3, 6), first.records[0]].map((r) => r.id);
    expect(ids).toEqual(['D504', 'D505', 'D506', 'D0']); // D7 was rejected by the connector: the second chunk starts at D501
    expect((JSON.parse(joined.text) as { id: string }[]).map((o) => o.id)).toEqual(ids);
  }, 60_000);
});

/**
 * A run's connector session lives on the read thread too: the clients read starts the scan of the deals file
 * (the spreadsheet's ScansAhead), and the deals read of the same run, on the same thread, takes it instead of
 * hashing the file again. A read of another run does not.
 */
describe('the connector session of a run on the read thread', () => {
  let dir: string;
  let settings: SpreadsheetSettings;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'offloaded-session-'));
    writeFileSync(join(dir, 'clients.csv'), 'id,name\nc1,Ann\nc2,Bob\n');
    writeFileSync(join(dir, 'deals.csv'), 'id,created_at\nd1,2025-03-01 10:00\n');
    settings = plainToInstance(SpreadsheetSettings, { clients: { path: join(dir, 'clients.csv') }, deals: { path: join(dir, 'deals.csv'), timezone: 'UTC' } });
  });
  afterAll(async () => {
    await closeReadPools();
    rmSync(dir, { recursive: true, force: true });
  });

  async function read(stream: 'clients' | 'deals', runId: number, laterStreams: ('clients' | 'deals')[]): Promise<string[]> {
    const logs: string[] = [];
    const logger = { log: () => undefined, warn: () => undefined, debug: (m: string) => logs.push(m) };
    const task = {
      connectorModule: spreadsheetConnector.workerModule!, connectionId: 'c', runId, settings, stream, laterStreams,
      since: null, until: Date.parse('2030-01-01T00:00:00Z'), state: null, mappingVersion: 1, batchSize: 100, serialise: true,
    };
    for await (const page of readOffloaded({ threads: 1, signal: new AbortController().signal, logger, task })) void page;
    return logs;
  }

  it("takes the scan that the run's earlier read started on the thread", async () => {
    await read('clients', 5, ['deals']);
    expect(await read('deals', 5, [])).toContain("deals: deals.csv was scanned while the run's earlier streams were read");
  });

  it('a read of another run scans for itself', async () => {
    await read('clients', 6, ['deals']);
    expect(await read('deals', 7, [])).not.toContain("deals: deals.csv was scanned while the run's earlier streams were read");
  });
});
