import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as readline from 'readline';
import type { ReadCursor } from 'tracker-sync/connector';

export type RawPage = Record<string, unknown>[];

interface SpillHeader {
  since: string | null;
  until: string;
}

/**
 * The raw pages of one stream as fetched in this run, kept on disk (a header line, then one JSON line per
 * page) for a later stream of the same run that reads the same pages: `clients: { from: deals }` fetches the
 * deal pages, the deals stream replays them instead of fetching them again. Memory holds one page at a time.
 * Only a read that reached its end leaves a file (written aside, then renamed); it serves a later read of the
 * same run (same `until`) whose window it covers, and is removed once no later stream needs it.
 */
export class PageSpill {
  constructor(readonly file: string) {}

  static of(workDir: string | undefined, connectionId: string, stream: string): PageSpill {
    const folder = workDir ?? path.join(os.tmpdir(), 'tracker-sync-generic-crm', connectionId.replace(/[^\w.-]+/g, '_'));
    return new PageSpill(path.join(folder, `${stream}-pages.jsonl`));
  }

  /** The pages of a complete spill of this run covering the window, or null. */
  async replay(window: ReadCursor): Promise<AsyncGenerator<RawPage> | null> {
    if (!fs.existsSync(this.file)) return null;
    const input = fs.createReadStream(this.file, 'utf8');
    const lines = readline.createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
    const first = await lines.next();
    const header = first.done ? null : (JSON.parse(first.value) as SpillHeader);
    if (!header || !covers(header, window)) {
      input.destroy();
      return null;
    }
    return (async function* pages() {
      try {
        for (let line = await lines.next(); !line.done; line = await lines.next()) {
          if (line.value) yield JSON.parse(line.value) as RawPage;
        }
      } finally {
        input.destroy();
      }
    })();
  }

  async create(window: ReadCursor): Promise<SpillWriter> {
    // the CRM's records: its owner's only, as the daemon's other files in data_dir
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const partial = `${this.file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
    const handle = await fs.promises.open(partial, 'w', 0o600);
    const header: SpillHeader = { since: window.since?.toISOString() ?? null, until: window.until.toISOString() };
    await handle.write(`${JSON.stringify(header)}\n`);
    return new SpillWriter(handle, partial, this.file);
  }

  async remove(): Promise<void> {
    await fs.promises.rm(this.file, { force: true });
  }
}

export class SpillWriter {
  constructor(
    private readonly handle: fs.promises.FileHandle,
    private readonly partial: string,
    private readonly file: string,
  ) {}

  async write(page: RawPage): Promise<void> {
    await this.handle.write(`${JSON.stringify(page)}\n`);
  }

  /** the read reached its end: the pages may be replayed */
  async complete(): Promise<void> {
    await this.handle.close();
    await fs.promises.rename(this.partial, this.file);
  }

  /** stopped early (preview limit, shutdown, an error): a partial read is never replayed */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await fs.promises.rm(this.partial, { force: true });
  }
}

/** Same run (same signpost), and the spill started no later than this read's window. */
function covers(header: SpillHeader, window: ReadCursor): boolean {
  if (header.until !== window.until.toISOString()) return false;
  if (header.since === null) return true;
  return window.since !== null && Date.parse(header.since) <= window.since.getTime();
}
