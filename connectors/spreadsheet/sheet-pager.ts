import type { CanonicalRecord, Deal, StreamName } from 'tracker-sync/connector';
import type { Page, ReadCursor, RejectedInput, SkippedField } from 'tracker-sync/connector';
import { CellReader } from './mapping/cell-reader';
import { checkLayout, LayoutMemory, layoutMemory } from './mapping/layout-memory';
import { ROW_MAPPERS } from './mapping/mappers';
import type { RowMapper } from './mapping/row-mapper';
import { columnLetter, layoutSignature, resolveLayout } from './mapping/sheet-layout';
import { OTHER_COLUMNS_SENT } from './mapping/stream-fields';
import { CloseDates, FutureRows } from './row-notices';
import { Cells, RowBatch, SkippedRecord, UncachedFormula } from './rows/sheet-rows';
import { DEFAULT_TIMEZONE, SheetEncoding, SheetSource } from './settings';
import { SheetSourceError } from './source/sheet-error';
import { UnreadColumns } from './unread-columns';
import { dateReading, wallDateText } from './values/dates';
import { IdRegistry } from './values/id-registry';
import { FLAG_BOM, FLAG_NUL, FLAG_REPLACEMENT_CHAR, hashRow, lastRowFlags, seedOf } from './values/row-hash';

/**
 * Rows per page. A page's records live until the engine has mapped and sent them; at 1,000 they outlived
 * the young generation and were promoted, and every promoted megabyte brings a full collection closer.
 */
export const PAGE_SIZE = 250;
const EXCERPT_CHARS = 200;
/** the most ids reserved on a guess (about 34 MB of table); a bigger file grows it from there */
const MAX_RESERVED_IDS = 1 << 21;
/** how much of a file is read before its row count is guessed: a few odd first rows do not skew the guess */
const SAMPLE_BYTES = 4 << 20;

export interface PagerOptions {
  stream: StreamName;
  source: SheetSource;
  /** for refs and messages: 'deals.csv' */
  sheetName: string;
  cursor: ReadCursor;
  /** skip rows outside the cursor window by updated_at */
  incremental: boolean;
  /** CSV rows must have the header's width; XLSX rows are sparse */
  strictWidth: boolean;
  /** cell separator for excerpts */
  delimiter: string;
  /** CSV/TSV: the encoding read (a row with bytes not in it says which to set) */
  encoding?: { name: SheetEncoding; set: boolean };
  /** seed of the row fingerprints (the stream's settings) */
  seed: number;
  contentHash: string;
  /** the file's size: with the first rows' bytes it tells how many ids to make room for (CSV; absent for XLSX) */
  fileBytes?: number;
  /** the file's quick stamp (source/quick-stamp.ts), kept beside the hash; null when it may not be trusted */
  fileStamp?: string | null;
  limit?: number;
  signal?: AbortSignal;
  /** what the stream's last acknowledged read recorded of its header (state.layout), to compare this header with */
  lastLayout?: unknown;
  /** ids of the stream's open rejections: an incremental read takes them whatever their updated_at */
  openRejections?: ReadonlySet<string>;
  warn(message: string): void;
  /** the file has a header and no data row: called at its end, where a state would go */
  headerOnly(): void;
  /** a warning the run keeps with the stream's counters (ConnectorLogger.notice) */
  notice(message: string): void;
}

/**
 * Turns raw rows into pages: header -> layout, each row -> canonical record (or rejected input), fingerprint,
 * duplicate-id check and cursor window. The state (content hash) rides only on the last page, yielded once every
 * row of the file has been read: a read that stops early (an error, a shutdown, a limit) never records the file
 * as read, and the engine saves the state only when every record of the stream is acknowledged or rejected.
 * Once a row is deferred past the cursor's upper bound the hash is withheld, or an unchanged file would never
 * deliver that row. The state also says how many data rows the file had (`rows`).
 */
export class SheetPager {
  private readonly headerRow: number;
  private reader?: CellReader;
  private mapper?: RowMapper;
  /** the header's columns up to its last name; `headerCells` counts its trailing empty cells too */
  private width = 0;
  private headerCells = 0;
  private unread?: UnreadColumns;
  private updatedCol = -1;
  private readonly ids = new IdRegistry();
  private idsReserved = false;
  /** rows handed to the pager so far (for the guess of the file's row count) */
  private rowsSeen = 0;
  /** rows below the header that are not blank: records, rejected rows, rows outside the cursor's window */
  private dataRows = 0;
  /** the row fingerprints' seed: the stream's settings, and what the header maps each column to */
  private seed: number;
  /** events without an id column: the seed of the row hash that is their id (see header()) */
  private eventIdSeed?: number;
  private state: Record<string, unknown>;
  /** this header's fields, recorded in the state for the next read */
  private layout?: LayoutMemory;
  /** deals: paid or cancelled ones nothing dates, and close dates on open ones */
  private closeDates?: CloseDates;
  private readonly future = new FutureRows();
  /** the read's own time: a row dated after it is in the future, not merely after the run's start */
  private readonly now = Date.now();
  private page = newPage();
  private sent = 0;
  private stopped = false;

  constructor(private readonly o: PagerOptions) {
    this.headerRow = o.source.header_row ?? 1;
    this.seed = o.seed;
    this.state = o.limit ? { content_hash: null } : { content_hash: o.contentHash, file_stamp: o.fileStamp ?? null };
  }

  async *pages(batches: AsyncIterable<RowBatch>): AsyncGenerator<Page> {
    for await (const batch of batches) {
      if (!this.idsReserved) this.reserveIds(batch);
      for (let i = 0; i < batch.rows.length; i++) {
        this.row(batch.rows[i], batch.numbers[i]);
        if (this.page.records.length + this.page.rejected.length >= PAGE_SIZE) {
          yield this.take();
          if (this.o.signal?.aborted) return;
        }
        if (this.stopped) break;
      }
      if (this.stopped) break;
    }
    if (!this.reader) throw new SheetSourceError(`${this.o.sheetName}: no header row found at row ${this.headerRow} or below`);
    if (this.o.signal?.aborted) return;
    const unread = this.unread!.warning(this.o.sheetName);
    if (unread) this.o.warn(unread);
    for (const notice of this.closeDates?.notices(this.o.sheetName) ?? []) this.o.notice(notice);
    const future = this.future.notice(this.o.sheetName);
    if (future) this.o.notice(future);
    const last = this.take();
    // not recorded as read (the last read's state stays): the next file with rows is read as it would have been
    if (this.dataRows === 0) this.o.headerOnly();
    else last.state = this.o.limit ? { ...this.state, rows: this.dataRows } : { ...this.state, rows: this.dataRows, layout: this.layout };
    if (this.future.count > 0) last.deferred_future = this.future.count;
    yield last;
  }

  /**
   * The file's row count guessed from the bytes per row of its first SAMPLE_BYTES (or first quarter), 5 % over,
   * so the duplicate-id table is sized once instead of doubling: at 1,000,000 ids, about 17 MB instead of 24 MB,
   * and never 36 MB while it grows. A guess past MAX_RESERVED_IDS reserves that many; a low guess grows the table
   * as before; the rows before the guess are in the table already (it grows from small until then).
   */
  private reserveIds(batch: RowBatch): void {
    const { fileBytes, limit } = this.o;
    if (fileBytes === undefined || limit || batch.bytesRead === undefined) {
      this.idsReserved = true; // nothing to guess from: the table grows as it goes
      return;
    }
    this.rowsSeen += batch.rows.length;
    if (batch.bytesRead < Math.min(fileBytes / 4, SAMPLE_BYTES) || this.rowsSeen === 0) return;
    this.idsReserved = true;
    const guess = Math.ceil(((this.rowsSeen * fileBytes) / batch.bytesRead) * 1.05);
    this.ids.reserve(Math.min(guess, MAX_RESERVED_IDS));
  }

  private row(row: Cells | SkippedRecord, rowNumber: number): void {
    if (rowNumber < this.headerRow) return;
    if (row instanceof SkippedRecord) {
      if (!this.reader) throw new SheetSourceError(`${this.o.sheetName} row ${rowNumber}: cannot be the header: ${row.reason}`);
      this.dataRows++;
      return this.reject(rowNumber, this.idOf(row.excerpt.split(this.o.delimiter), true), '', row.reason, clip(row.excerpt));
    }
    if (isEmptyRow(row)) return;
    if (!this.reader) return this.header(row);
    this.dataRows++;
    this.dataRow(row, rowNumber);
  }

  private header(cells: Cells): void {
    const layout = resolveLayout(this.o.stream, cells, this.o.source.columns, this.o.sheetName);
    this.layout = layoutMemory(layout, this.o.source);
    checkLayout(this.o.lastLayout, this.layout, layout, this.o.sheetName);
    const { source } = this.o;
    if (this.o.stream === 'deals') this.closeDates = new CloseDates(source.closed_statuses);
    const reading = dateReading(source.timezone ?? DEFAULT_TIMEZONE, source.date_format);
    this.reader = new CellReader(layout, reading, source.status_map, source.timezone ?? null, source.decimal_mark ?? null);
    this.mapper = ROW_MAPPERS[this.o.stream](this.reader);
    this.width = layout.width;
    this.headerCells = layout.header.length;
    this.unread = new UnreadColumns(layout);
    this.updatedCol = layout.index.updated_at ?? -1;
    // a renamed column (`Сумма` -> `price`) changes what every row sends though no row changed: they are sent again
    this.seed = seedOf(`${this.o.seed}|${layoutSignature(layout, OTHER_COLUMNS_SENT.has(this.o.stream))}`);
    if (this.o.stream === 'events' && layout.index.id === undefined) {
      // such an event's id is a hash of its row, seeded as before the layout joined the seed (repeated names
      // included): a renamed data column re-sends the events under their ids instead of sending second copies
      this.eventIdSeed = layout.repeated.length > 0 ? seedOf(`${this.o.seed}|repeated header names kept apart`) : this.o.seed;
    }
    for (const { name, columns, as } of layout.repeated) {
      this.o.warn(
        `${this.o.sheetName}: the header has ${JSON.stringify(name)} ${columns.length} times (columns ${columns.map(columnLetter).join(', ')}); ` +
          `each is kept, as the custom fields ${as.map((n) => JSON.stringify(n)).join(', ')}`,
      );
    }
    if (this.o.incremental && this.updatedCol < 0) {
      this.o.warn(`${this.o.sheetName}: no updated_at column; every row is read`);
    }
  }

  private dataRow(cells: Cells, rowNumber: number): void {
    const hash = hashRow(cells, this.seed);
    const flags = lastRowFlags();
    const rowHash = this.eventIdSeed === undefined ? hash : hashRow(cells, this.eventIdSeed);
    if (flags & (FLAG_REPLACEMENT_CHAR | FLAG_NUL)) {
      const what = flags & FLAG_NUL ? 'binary data (NUL bytes)' : this.notInEncoding();
      return this.reject(rowNumber, this.idOf(cells), '', `the row contains ${what}`, excerpt(cells, this.o.delimiter));
    }
    if (flags & FLAG_BOM) stripBoms(cells);
    const misfit = this.o.strictWidth ? this.widthProblem(cells) : null;
    if (misfit) return this.reject(rowNumber, this.idOf(cells), '', misfit, excerpt(cells, this.o.delimiter));
    this.unread!.note(cells, rowNumber);
    if (!this.o.strictWidth) {
      const uncached = this.uncachedFormula(cells, rowNumber);
      if (uncached) return this.reject(rowNumber, this.idOf(cells), uncached.field, uncached.reason, excerpt(cells, this.o.delimiter));
    }
    const r = this.reader!;
    r.start(cells);
    const record = this.mapper!(rowHash);
    const id = record ? record.id : this.idOf(cells);
    const first = id === '' ? 0 : this.ids.remember(id, rowNumber);
    if (!record) return this.reject(rowNumber, id, r.failedField, r.failedReason, excerpt(cells, this.o.delimiter));
    if (first > 0) {
      return this.reject(rowNumber, id, 'id', `duplicate id ${JSON.stringify(id)} (first at row ${first})`, excerpt(cells, this.o.delimiter));
    }
    if (this.o.incremental && !this.inWindow(record, rowNumber)) return;
    this.closeDates?.note(record as Deal);
    this.page.records.push(record);
    this.page.refs.push(`${this.o.sheetName} row ${rowNumber}`);
    this.page.hashes.push(hash);
    for (let i = 0; i < r.leftOut.length; i += 2) {
      this.page.skipped.push({ id, field: r.leftOut[i], reason: r.leftOut[i + 1], ref: `${this.o.sheetName} row ${rowNumber}` });
    }
    if (this.o.limit && ++this.sent >= this.o.limit) this.stopped = true;
  }

  /**
   * CSV: a row has a cell for each column the header names. A trailing delimiter on the header line (empty cells
   * after its last name) or on the row (empty cells past the header's end) is no column of its own.
   */
  private widthProblem(cells: Cells): string | null {
    if (cells.length < this.width) return `the row has ${cells.length} columns, the header has ${this.width}`;
    if (cells.length > this.headerCells && !onlyEmptyBeyond(cells, this.headerCells)) {
      return `the row has ${cells.length} columns, the header has ${this.headerCells}`;
    }
    return null;
  }

  /**
   * U+FFFD in a row: bytes its file's encoding has no character for. Mixed encodings (a row pasted from another
   * export), or the whole file in the other one: then the `encoding` setting reads it.
   */
  private notInEncoding(): string {
    const encoding = this.o.encoding;
    if (!encoding) return 'bytes that are not valid in the detected encoding (mixed encodings?)';
    const [name, other, otherName] = encoding.name === 'utf-8' ? ['UTF-8', 'windows-1251', 'Windows-1251'] : ['Windows-1251', 'utf-8', 'UTF-8'];
    return `bytes that are not valid in the ${encoding.set ? 'encoding set' : 'detected encoding'}, ${name} ` +
      `(mixed encodings? if the whole file is ${otherName}, set encoding: ${other})`;
  }

  /**
   * false for rows before the window (already synced) and after it (deferred: the hash is withheld). A row before it
   * whose id has an open rejection is read all the same: fixed without touching its updated_at (a bad price
   * corrected), it would otherwise never be retried.
   */
  private inWindow(record: CanonicalRecord, rowNumber: number): boolean {
    if (this.updatedCol < 0) return true;
    const updated = (record as Deal).updated_at;
    const at = updated ?? (record as Deal).created_at;
    if (!at) return true;
    const { since, until } = this.o.cursor;
    if (since && at.getTime() < since.getTime()) return !!this.o.openRejections?.has(record.id);
    if (until && at.getTime() > until.getTime()) {
      if (this.state.content_hash !== null) this.state = { content_hash: null, deferred: true };
      if (at.getTime() > this.now) {
        const field = updated ? 'updated_at' : 'created_at';
        this.future.note(record.id, `row ${rowNumber}`, field, this.reader!.quoted(this.reader!.col(field)));
      }
      return false;
    }
    return true;
  }

  /** XLSX: the first cell of the header's columns holding a formula without a usable cached value (none, or an error) */
  private uncachedFormula(cells: Cells, rowNumber: number): { field: string; reason: string } | null {
    const end = Math.min(cells.length, this.width);
    for (let col = 0; col < end; col++) {
      const cell = cells[col];
      if (!(cell instanceof UncachedFormula)) continue;
      const { layout } = this.reader!;
      const field = Object.keys(layout.index).find((name) => layout.index[name] === col) ?? layout.header[col];
      const where = `the cell ${columnLetter(col)}${rowNumber} (column ${JSON.stringify(layout.header[col])}) holds the formula ${cell}`;
      const reason = cell.errorResult
        ? `${where} whose saved result is an error (#DIV/0!, #N/A, #VALUE! or the like): correct the formula or the cells it reads`
        : `${where} without a cached value: ` +
          'the file was saved by a program that does not calculate formulas; open and save it in Excel or LibreOffice, or paste the values';
      return { field, reason };
    }
    return null;
  }

  /** `partial`: the cells of a row's first characters, whose last one may be cut */
  private idOf(cells: Cells, partial = false): string {
    const col = this.reader!.col('id');
    const value = col >= 0 && col < cells.length - (partial ? 1 : 0) ? cells[col] : '';
    const id = value === null || value === undefined ? '' : String(value).trim();
    return partial ? id.replace(/^"(.*)"$/, '$1') : id;
  }

  private reject(rowNumber: number, id: string, field: string, reason: string, rawExcerpt: string): void {
    const rejected: RejectedInput = { id, field, reason, ref: `${this.o.sheetName} row ${rowNumber}` };
    if (rawExcerpt) rejected.excerpt = rawExcerpt;
    this.page.rejected.push(rejected);
  }

  private take(): Page {
    const { records, refs, hashes, rejected, skipped } = this.page;
    const page: Page = { records, refs, hashes };
    if (rejected.length > 0) page.rejected = rejected;
    if (skipped.length > 0) page.skipped_fields = skipped;
    this.page = newPage();
    return page;
  }
}

function newPage() {
  return { records: [] as CanonicalRecord[], refs: [] as string[], hashes: [] as string[], rejected: [] as RejectedInput[], skipped: [] as SkippedField[] };
}

function isEmptyRow(cells: Cells): boolean {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell === '' || cell === null || cell === undefined) continue;
    if (typeof cell === 'string' && cell.trim() === '') continue;
    return false;
  }
  return true;
}

function onlyEmptyBeyond(cells: Cells, width: number): boolean {
  for (let i = width; i < cells.length; i++) if (cells[i] !== '') return false;
  return true;
}

function stripBoms(cells: Cells): void {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (typeof cell === 'string' && cell.includes('\uFEFF')) cells[i] = cell.replace(/\uFEFF/g, '');
  }
}

function excerpt(cells: Cells, delimiter: string): string {
  let text = '';
  for (let i = 0; i < cells.length && text.length <= EXCERPT_CHARS; i++) {
    const cell = cells[i];
    text += (i > 0 ? delimiter : '') + (cell instanceof Date && !Number.isNaN(cell.getTime()) ? wallDateText(cell) : String(cell ?? ''));
  }
  return clip(text);
}

function clip(text: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = text.replace(/[\u0000-\u0008\u000e-\u001f]/g, '�');
  return printable.length > EXCERPT_CHARS ? `${printable.slice(0, EXCERPT_CHARS)}…` : printable;
}
