import { MAX_ROW_BYTES } from './sheet-rows';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const EXCERPT_BYTES = 256;

/** A record over MAX_ROW_BYTES, dropped before the parser saw it: the parser in use ends, a new one starts after it. */
export class OverlongRecord {
  constructor(
    /** 1-based record number (the row a spreadsheet program shows) */
    readonly row: number,
    readonly bytes: number,
    /** the record's first bytes */
    readonly head: Buffer,
  ) {}
}

type Terminator = 'lf' | 'crlf' | 'cr';

/** What the parser gets next: bytes of whole records, or the place of a record it must not see. */
export type Framed = Buffer | OverlongRecord;

/**
 * Finds where the records of a delimited text end, with csv-parse's rules for our options (quote `"`, escape `""`,
 * relax_quotes: a quote opens a quoted field only at the start of a field, a quote inside a quoted field that is
 * not doubled closes it; the record delimiter is the first CR LF, LF or CR met outside quotes), so that a record
 * over MAX_ROW_BYTES never reaches the parser: it is dropped while it streams by (memory stays bounded) and
 * reported in its place, and reading goes on with the next record. A quote still open at the end of the input
 * is reported with the row where it opened (`openQuoteRow`).
 * Native indexOf jumps from quote to quote and from record end to record end: no per-byte loop in JavaScript.
 */
export class RecordFramer {
  private quoting = false;
  /** the last chunk ended on a quote inside a quoted field: the next byte says whether it was doubled */
  private quoteAtEnd = false;
  /** the last chunk ended on a CR before the record delimiter was known: the next byte says CR or CR LF */
  private crAtEnd = false;
  private terminator: Terminator | null = null;
  /** what findEnd met while the record delimiter is not known yet */
  private found: Terminator = 'lf';
  private lastByte = -1;
  /** absolute offset of the current chunk */
  private offset = 0;
  private recordStart = 0;
  private records = 0;
  private discarding = false;
  private discardHead: Buffer = Buffer.alloc(0);
  /** bytes not handed out yet (views into the chunks), from `unsentStart` on */
  private unsent: Buffer[] = [];
  private unsentStart = 0;
  private out: Framed[] = [];

  constructor(private readonly delimiter: number) {}

  /** the record delimiter found so far, for a parser started after a dropped record */
  get recordDelimiter(): string | undefined {
    return this.terminator === null ? undefined : { lf: '\n', crlf: '\r\n', cr: '\r' }[this.terminator];
  }

  /** records completed so far */
  get recordCount(): number {
    return this.records;
  }

  push(chunk: Buffer): Framed[] {
    this.out = [];
    if (chunk.length === 0) return this.out;
    this.unsent.push(chunk);
    let pos = 0;
    if (this.offset === 0 && chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
      pos = this.recordStart = 3;
    }
    pos = this.resolvePending(chunk, pos);
    this.scan(chunk, pos);
    const end = this.offset + chunk.length;
    if (!this.discarding && end - this.recordStart > MAX_ROW_BYTES) this.startDiscard();
    if (this.discarding) this.drop(end);
    else this.hand(this.recordStart);
    this.lastByte = chunk[chunk.length - 1];
    this.offset = end;
    return this.out;
  }

  /** The rest of the input: the last record, or a dropped one. `openQuoteRow` is set when a quote never closes. */
  end(): { framed: Framed[]; openQuoteRow: number | null } {
    this.out = [];
    if (this.quoteAtEnd) this.quoting = this.quoteAtEnd = false;
    if (this.crAtEnd) {
      this.crAtEnd = false;
      this.terminator ??= 'cr';
      this.recordEnd(-1);
    }
    if (this.quoting) return { framed: this.out, openQuoteRow: this.records + 1 };
    if (this.discarding) this.out.push(new OverlongRecord(++this.records, this.offset - this.recordStart, this.discardHead));
    else {
      if (this.offset > this.recordStart) this.records++; // a last record without a newline
      this.hand(this.offset);
    }
    this.unsent = [];
    return { framed: this.out, openQuoteRow: null };
  }

  /** a quote or CR that ended the last chunk, decided by this chunk's first byte */
  private resolvePending(chunk: Buffer, pos: number): number {
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      if (chunk[pos] === QUOTE) return pos + 1;
      this.quoting = false;
    } else if (this.crAtEnd) {
      this.crAtEnd = false;
      this.terminator = chunk[pos] === LF ? 'crlf' : 'cr';
      if (this.terminator === 'crlf') {
        this.recordEnd(pos);
        return pos + 1;
      }
      this.recordEnd(-1); // the CR that ended the last chunk
    }
    return pos;
  }

  private scan(buf: Buffer, from: number): void {
    const length = buf.length;
    let pos = from;
    let nextQuote = -2;
    let nextEnd = -2;
    while (pos < length) {
      if (this.quoting) {
        const q = buf.indexOf(QUOTE, pos);
        if (q < 0) return;
        if (q + 1 >= length) {
          this.quoteAtEnd = true;
          return;
        }
        if (buf[q + 1] === QUOTE) pos = q + 2;
        else {
          this.quoting = false;
          pos = q + 1;
        }
        continue;
      }
      if (nextQuote !== -1 && nextQuote < pos) nextQuote = buf.indexOf(QUOTE, pos);
      if (nextEnd !== -1 && nextEnd < pos) nextEnd = this.findEnd(buf, pos);
      if (nextQuote >= 0 && (nextEnd < 0 || nextQuote < nextEnd)) {
        if (this.atFieldStart(buf, nextQuote)) this.quoting = true;
        pos = nextQuote + 1;
        continue;
      }
      if (nextEnd === -3) {
        this.crAtEnd = true; // a CR at the end: the next chunk says what it is
        return;
      }
      if (nextEnd < 0) return;
      this.terminator ??= this.found;
      this.recordEnd(nextEnd);
      pos = nextEnd + 1;
    }
  }

  /** index of the last byte of the next record delimiter; -1 when none in this chunk, -3 when a CR ends it undecided */
  private findEnd(buf: Buffer, pos: number): number {
    switch (this.terminator) {
      case 'lf':
        return buf.indexOf(LF, pos);
      case 'cr':
        return buf.indexOf(CR, pos);
      case 'crlf':
        for (let lf = buf.indexOf(LF, pos); lf >= 0; lf = buf.indexOf(LF, lf + 1)) {
          if (lf > 0 ? buf[lf - 1] === CR : this.lastByte === CR) return lf;
        }
        return -1;
      default: {
        // found, not yet decided: a CR or LF inside a quoted field does not count (csv-parse looks outside quotes)
        const lf = buf.indexOf(LF, pos);
        const cr = buf.indexOf(CR, pos);
        if (cr < 0 || (lf >= 0 && lf < cr)) {
          this.found = 'lf';
          return lf;
        }
        if (cr + 1 >= buf.length) return -3;
        this.found = buf[cr + 1] === LF ? 'crlf' : 'cr';
        return this.found === 'crlf' ? cr + 1 : cr;
      }
    }
  }

  private atFieldStart(buf: Buffer, at: number): boolean {
    if (this.offset + at === this.recordStart) return true;
    return (at > 0 ? buf[at - 1] : this.lastByte) === this.delimiter;
  }

  /** the record ends with the byte at `at` of the current chunk */
  private recordEnd(at: number): void {
    const end = this.offset + at + 1;
    if (this.discarding) {
      this.drop(end);
      this.out.push(new OverlongRecord(this.records + 1, end - this.recordStart, this.discardHead));
      this.discarding = false;
    } else if (end - this.recordStart > MAX_ROW_BYTES) {
      this.hand(this.recordStart);
      const head = this.headOfUnsent();
      this.drop(end);
      this.out.push(new OverlongRecord(this.records + 1, end - this.recordStart, head));
    }
    this.records++;
    this.recordStart = end;
  }

  private startDiscard(): void {
    this.hand(this.recordStart);
    this.discardHead = this.headOfUnsent();
    this.discarding = true;
  }

  private headOfUnsent(): Buffer {
    const parts: Buffer[] = [];
    let bytes = 0;
    for (const part of this.unsent) {
      if (bytes >= EXCERPT_BYTES) break;
      parts.push(part.subarray(0, EXCERPT_BYTES - bytes));
      bytes += parts[parts.length - 1].length;
    }
    return Buffer.concat(parts);
  }

  /** hands out the unsent bytes before absolute offset `to` */
  private hand(to: number): void {
    this.take(to, true);
  }

  private drop(to: number): void {
    this.take(to, false);
  }

  private take(to: number, keep: boolean): void {
    while (this.unsentStart < to && this.unsent.length > 0) {
      const part = this.unsent[0];
      const bytes = Math.min(part.length, to - this.unsentStart);
      if (keep) this.out.push(bytes === part.length ? part : part.subarray(0, bytes));
      if (bytes === part.length) this.unsent.shift();
      else this.unsent[0] = part.subarray(bytes);
      this.unsentStart += bytes;
    }
  }
}
