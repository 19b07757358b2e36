import type { CanonicalRecord } from '../../connectors/canonical';
import type { Page } from '../../connectors/connector-definition';
import { errorText } from '../engine-errors';
import { fingerprinter, Fingerprinter } from '../pipeline/fingerprint';
import { MappingError } from '../mappings/mapping-error';
import type { StreamMapping } from '../mappings/stream-mapping';
import type { Problem } from '../pipeline/record-pipeline';
import { THREW, WireChunk, WITHOUT_VISIT } from './offload-wire';

const COMMA = 0x2c;

/**
 * On the worker thread: the connector's pages regrouped into chunks of `batchSize` records, each record mapped,
 * checked, fingerprinted and (serialised streams) written as JSON into the chunk's one buffer, `[p0,p1,…]`, so a
 * chunk nothing is dropped from is its request's body as it is. The payload's JSON is made once, for the body
 * and the fingerprint. What is dropped or refused is decided on the main thread (record-pipeline.ts), which
 * holds the store.
 */
export class ChunkBuilder {
  private readonly fingerprints: Fingerprinter;
  private chunk: WireChunk;
  private buffer: Buffer;
  private used = 1;
  private serialised = 0;
  /** the last chunk's body size: the next one starts with room for as much */
  private capacity = 64 * 1024;
  mapped = 0;

  constructor(
    private readonly mapping: StreamMapping,
    mappingVersion: number,
    private readonly batchSize: number,
    private readonly serialise: boolean,
  ) {
    this.fingerprints = fingerprinter(mappingVersion);
    this.chunk = this.empty();
    this.buffer = this.newBuffer(this.capacity);
  }

  get full(): boolean {
    return this.chunk.ids.length >= this.batchSize;
  }

  /** What a page says besides its records: it rides on the chunk being built. */
  pageDone(page: Page): void {
    if (page.state) this.chunk.state = page.state;
    if (page.unchanged) this.chunk.unchanged = true;
    if (page.progress) this.chunk.progress = page.progress;
    if (page.deferred_future) this.chunk.deferredFuture = (this.chunk.deferredFuture ?? 0) + page.deferred_future;
  }

  rejected(page: Page): void {
    if (page.rejected?.length) this.chunk.rejected.push(...page.rejected);
    if (page.skipped_fields?.length) (this.chunk.skipped ??= []).push(...page.skipped_fields);
  }

  add(record: CanonicalRecord, ref: string | undefined, hash: string | undefined): void {
    const c = this.chunk;
    const i = c.ids.length;
    const id = record.id === undefined || record.id === null ? '' : String(record.id);
    c.ids.push(id);
    const updatedAt = (record as { updated_at?: unknown }).updated_at;
    if (updatedAt !== undefined) (c.at ??= new Float64Array(this.batchSize).fill(NaN))[i] = updatedAt instanceof Date ? updatedAt.getTime() : NaN;
    if (hash !== undefined) (c.hashes ??= new Array(i).fill(undefined)).push(hash);
    else c.hashes?.push(undefined);
    this.mapped++;
    let payload: unknown;
    try {
      if (id === '') throw new Error('no id'); // the main thread rejects it (intake)
      payload = this.mapping.toPayload(record);
    } catch (e) {
      c.flags[i] = THREW;
      this.refused(i, { record, problems: [mappingProblem(e)], ref });
      return;
    }
    const problems = this.mapping.check(payload);
    const json = this.serialise || hash === undefined ? JSON.stringify(payload) : '';
    if (hash === undefined) (c.fingerprints ??= new Array(i).fill(null)).push(this.fingerprints.payloadText(json));
    else c.fingerprints?.push(null);
    if (problems.length) {
      this.refused(i, { record, problems, ref, payload });
      return;
    }
    if (this.mapping.withoutVisit?.(payload)) c.flags[i] = WITHOUT_VISIT;
    if (this.serialise) this.write(i, json);
    else c.payloads![i] = payload;
  }

  /** The chunk as it stands, and a new one begun; null when it holds nothing at all. */
  take(): { chunk: WireChunk; transfer: ArrayBuffer[] } | null {
    const c = this.chunk;
    if (!c.ids.length && !c.rejected.length && !c.skipped && !c.state && !c.unchanged && !c.progress && !c.deferredFuture) return null;
    const transfer: ArrayBuffer[] = [c.flags.buffer as ArrayBuffer];
    if (c.at) transfer.push(c.at.buffer as ArrayBuffer);
    if (this.serialise && this.serialised) {
      this.buffer[0] = 0x5b; // [
      this.buffer[this.used] = 0x5d; // ]
      c.body = this.buffer.buffer as ArrayBuffer;
      c.bodyLength = this.used + 1;
      transfer.push(c.body, c.offsets!.buffer as ArrayBuffer, c.lengths!.buffer as ArrayBuffer);
      this.capacity = Math.max(64 * 1024, this.used + 1);
    }
    this.chunk = this.empty();
    if (c.body) this.buffer = this.newBuffer(this.capacity);
    this.used = 1;
    this.serialised = 0;
    return { chunk: c, transfer };
  }

  private write(i: number, json: string): void {
    const c = this.chunk;
    if (this.serialised) this.room(1);
    if (this.serialised) this.buffer[this.used++] = COMMA;
    this.room(json.length * 3 + 1);
    const length = this.buffer.write(json, this.used, 'utf8');
    c.offsets![i] = this.used;
    c.lengths![i] = length;
    this.used += length;
    this.serialised++;
  }

  private refused(i: number, what: { record: unknown; problems: Problem[]; ref?: string; payload?: unknown }): void {
    (this.chunk.refused ??= {})[i] = what;
  }

  /** at least `bytes` more after `used`, plus the closing bracket */
  private room(bytes: number): void {
    if (this.used + bytes + 1 <= this.buffer.length) return;
    const bigger = this.newBuffer(Math.max(this.buffer.length * 2, this.used + bytes + 1));
    this.buffer.copy(bigger, 0, 0, this.used);
    this.buffer = bigger;
  }

  private newBuffer(size: number): Buffer {
    // its own ArrayBuffer (never Node's shared pool): it is transferred to the main thread whole
    return Buffer.allocUnsafeSlow(size);
  }

  private empty(): WireChunk {
    return {
      ids: [],
      at: null,
      hashes: null,
      fingerprints: null,
      flags: new Uint8Array(this.batchSize),
      refused: null,
      payloads: this.serialise ? null : new Array(this.batchSize),
      body: null,
      bodyLength: 0,
      offsets: this.serialise ? new Int32Array(this.batchSize).fill(-1) : null,
      lengths: this.serialise ? new Int32Array(this.batchSize) : null,
      rejected: [],
    };
  }
}

/** A mapping that threw: the field it names (MappingError), else the whole record (as record-pipeline.ts says it). */
function mappingProblem(e: unknown): Problem {
  return e instanceof MappingError ? { field: e.field, reason: e.reason } : { field: 'record', reason: errorText(e) };
}
