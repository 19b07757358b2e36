import { createHash } from 'crypto';
import type { Client, Deal, Manager, StreamName } from '../../src/connectors/canonical';
import { defineConnector, Page, RejectedInput, StreamSpec } from '../../src/connectors/connector-definition';

/** What a memory source holds; tests mutate it between runs. */
export interface MemorySource {
  deals: Deal[];
  clients: Client[];
  managers: Manager[];
  pageSize: number;
  /** the deals stream claims ascending updated_at (the connector does not sort: tests decide the order) */
  sorted: boolean;
  /** filter by the engine's window (since ≤ updated_at ≤ until), as a well-behaved CRM connector does */
  honourWindow: boolean;
  /** rows the "file" could not parse */
  rejected: RejectedInput[];
  /** the stream whose first page carries `rejected` (default deals) */
  rejectedStream?: StreamName;
  /** yield the first page again after it (a looping paginator) */
  repeatFirstPage: boolean;
  /** give Page.hashes (a cheap hash of the "raw row"), as a file connector does */
  hashes: boolean;
  /** Page.state on the deals stream's last page (a file connector's content hash) */
  state?: Record<string, unknown>;
  /** called before each page; may throw or wait */
  beforePage?: (stream: StreamName, index: number) => Promise<void> | void;
  /** windows the engine asked for, per read, with the streams it said the run reads after this one */
  windows: { stream: StreamName; since: Date | null; until: Date; later?: StreamName[] }[];
}

const sources = new Map<string, MemorySource>();

export function memorySource(name: string, init: Partial<MemorySource> = {}): MemorySource {
  const source: MemorySource = {
    deals: [], clients: [], managers: [], pageSize: 100, sorted: true, honourWindow: true, rejected: [], repeatFirstPage: false, hashes: false, windows: [], ...init,
  };
  sources.set(name, source);
  return source;
}

export class MemorySettings {
  source = 'default';
}

/** A connector over in-memory arrays: deals and clients incremental by updated_at, managers whole. */
export const memoryConnector = defineConnector<MemorySettings>({
  name: 'memory',
  settingsClass: MemorySettings,
  streams(settings): StreamSpec[] {
    const s = sourceOf(settings);
    return [
      { name: 'managers', incremental: false },
      { name: 'clients', incremental: true, sorted: false },
      { name: 'deals', incremental: true, sorted: s.sorted },
    ];
  },
  async check() {
    return { ok: true, message: 'memory' };
  },
  async *read(stream, cursor, context) {
    const s = sourceOf(context.settings);
    s.windows.push({ stream, since: cursor.since, until: cursor.until, later: context.laterStreams });
    const all = (stream === 'deals' ? s.deals : stream === 'clients' ? s.clients : s.managers) as (Deal | Client | Manager)[];
    const inWindow = all.filter((r) => {
      const at = (r as Deal).updated_at;
      if (!s.honourWindow || !(at instanceof Date)) return true;
      return (!cursor.since || at >= cursor.since) && at <= cursor.until;
    });
    let index = 0;
    for (let i = 0; i < inWindow.length; i += s.pageSize) {
      await s.beforePage?.(stream, index);
      const records = inWindow.slice(i, i + s.pageSize).map((r) => structuredClone(r));
      const page: Page = { records, refs: records.map((r) => `${stream} ${r.id}`) };
      if (s.hashes) page.hashes = records.map((r) => rawRowHash(r));
      if (stream === (s.rejectedStream ?? 'deals') && i === 0 && s.rejected.length) page.rejected = s.rejected;
      if (stream === 'deals' && s.state && i + s.pageSize >= inWindow.length) page.state = s.state;
      yield page;
      if (s.repeatFirstPage && index === 0) yield { ...page, records: page.records.map((r) => structuredClone(r)) };
      index++;
    }
  },
});

function sourceOf(settings: MemorySettings): MemorySource {
  const s = sources.get(settings.source);
  if (!s) throw new Error(`memory connector: no source ${settings.source}`);
  return s;
}

/** Deals d1..dN with updated_at one second apart from `start` (or `sameTime` for all). */
export function makeDeals(n: number, options: { start?: Date; prefix?: string; sameTime?: boolean; from?: number } = {}): Deal[] {
  const start = options.start ?? new Date('2025-03-10T09:00:00.000Z');
  const from = options.from ?? 1;
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const at = new Date(start.getTime() + (options.sameTime ? 0 : k * 1000));
    return {
      id: `${options.prefix ?? 'd'}${i}`,
      title: `Deal ${i}`,
      created_at: at,
      updated_at: at,
      status: '0',
      visit_id: i % 2 ? String(1000 + i) : null,
      price: 100 + i,
      client_id: null,
      products: [{ id: `p${i}`, name: 'Thing', quantity: 1, price: 10, categories: ['a', 'b'] }],
    };
  });
}

/** Stands for a hash of the raw source row. */
function rawRowHash(record: unknown): string {
  return createHash('md5').update(JSON.stringify(record)).digest('hex');
}
