import type { CanonicalRecord } from '../connectors/canonical';
import type { Page, ReadCursor, StreamSpec } from '../connectors/connector-definition';
import { Checkpoint, writeCheckpoint } from '../store/checkpoint-writer';
import type { AcknowledgedRecord } from '../store/repositories/record-state.store';
import { Chunk, CoverageTracker } from './coverage-tracker';
import { isAccessRefusal } from '../tracker/tracker-error';
import { StreamSortError, errorText } from './engine-errors';
import { StreamCounters } from './engine-types';
import { fingerprinter, Fingerprinter, stateToStore } from './fingerprint';
import { isValidDate, MappingError } from './mapping/mapping-error';
import { PageGuard } from './page-guard';
import { RejectionLog } from './rejection-log';
import { addServiceCounters } from './service-answer';
import { RunScope, snapshotStreams, zeroStreamCounters } from './run-scope';
import { HandlerContext, OutgoingItem, StreamHandler } from './stream-handlers';

export interface StreamPlan {
  spec: StreamSpec;
  handler: StreamHandler;
  /** the stream's mapping version: part of every fingerprint and of the saved connector state */
  mappingVersion: number;
  window: ReadCursor;
  read: () => AsyncIterable<Page>;
  /** drop records whose payload the service acknowledged already (not in full / since modes) */
  useFingerprints: boolean;
  /** write the cursor (not in a run restricted to some ids) */
  moveCursor: boolean;
  /** write the connector's Page.state once the stream is complete */
  saveState: boolean;
  /** the read covers the whole source (no since, no id filter): managers may be diffed for deletion */
  wholeSource: boolean;
  /** a retry of rejected records: only these ids are processed */
  onlyIds?: ReadonlySet<string>;
  batchSize: number;
  concurrency: number;
}

interface Pending extends OutgoingItem {
  fingerprint: string;
  chunk: Chunk;
  withoutVisit: boolean;
}

/** A record read and fingerprinted; with a source hash (Page.hashes) it is mapped only if it changed. */
interface Candidate {
  externalId: string;
  fingerprint: string;
  payload?: unknown;
  record?: CanonicalRecord;
  ref?: string;
}

/** What only some checkpoints carry: the final cursor, the connector's state, managers deleted from the service. */
type CheckpointExtra = Pick<Checkpoint, 'cursor' | 'state' | 'forgotten' | 'completeRead'>;

export interface StreamOutcome {
  /** false when the run was asked to stop before the stream's end */
  complete: boolean;
}

/**
 * One stream of one run: read pages → map → check → fingerprint → drop unchanged (looked up per chunk)
 * → batches (several in flight where order does not matter) → a checkpoint per acknowledged batch.
 */
export class StreamSync {
  private readonly counters: StreamCounters;
  private readonly coverage = new CoverageTracker();
  private chunk: Chunk;
  private candidates: Candidate[] = [];
  private outgoing: Pending[] = [];
  /** requests to the service not answered yet: at most `concurrency` */
  private readonly inFlight = new Set<Promise<void>>();
  /**
   * answered batches whose checkpoint is not written yet: at most `concurrency`, so that a store slower than
   * the service holds the next batch back, and a crash re-sends at most twice the batches of the window
   */
  private readonly checkpointing = new Set<Promise<void>>();
  /** acknowledged, waiting for the queued checkpoint */
  private unwritten: AcknowledgedRecord[] = [];
  private queuedCheckpoint: Promise<void> | null = null;
  private failure: Error | null = null;
  private readonly rejections: RejectionLog;
  private readonly pageGuard: PageGuard;
  private previousAt: number | null = null;
  private lastState: Record<string, unknown> | undefined;
  private sawUnchangedPage = false;
  private deferred = 0;
  private readonly seen: Set<string> | null;
  private writtenCursor: number | null = null;
  /** updated_at of a record that broke the sort order: the cursor must not stay past it */
  private rewindTo: number | null = null;
  private lastCheckpointAt = Date.now();
  private readonly untilMs: number;
  private readonly fingerprints: Fingerprinter;

  constructor(
    private readonly run: RunScope,
    private readonly plan: StreamPlan,
  ) {
    const stream = plan.spec.name;
    this.counters = run.streams[stream] ?? (run.streams[stream] = zeroStreamCounters());
    this.chunk = this.coverage.open();
    this.seen = plan.handler.onCompleteRead ? new Set() : null;
    this.untilMs = plan.window.until.getTime();
    this.fingerprints = fingerprinter(plan.mappingVersion);
    this.rejections = new RejectionLog(run.runId, run.connectionId, stream);
    this.pageGuard = new PageGuard(`connection ${run.connectionId} stream ${stream}`);
  }

  /** the run was asked to stop (shutdown): batches in flight finish, no new one is sent */
  private get stopping(): boolean {
    return this.run.signal.aborted;
  }

  private get stream() {
    return this.plan.spec.name;
  }

  async execute(): Promise<StreamOutcome> {
    await this.loadOpenRejections();
    const aborted = await this.readAll();
    await this.drain();
    if (this.failure) {
      // A refused Api-key or project: nothing was acknowledged, and nothing of this run is kept.
      if (!isAccessRefusal(this.failure)) await this.saveProgress().catch(() => undefined);
      throw this.failure;
    }
    if (aborted) {
      await this.saveProgress();
      return { complete: false };
    }
    await this.finish();
    return { complete: true };
  }

  // ---- reading ---------------------------------------------------------------------------

  /** true when stopped by the run's signal */
  private async readAll(): Promise<boolean> {
    try {
      for await (const page of this.plan.read()) {
        if (this.run.signal.aborted) return true;
        await this.onPage(page);
        if (this.failure) return false;
        if (this.stopping) return true;
        this.run.progress(this.stream, false, page.progress);
      }
    } catch (e) {
      if (this.run.signal.aborted) return true;
      this.fail(e);
      return false;
    }
    if (this.run.signal.aborted) return true;
    await this.closeChunk();
    await this.dispatchAll();
    return false;
  }

  private async onPage(page: Page): Promise<void> {
    this.pageGuard.check(page);
    if (page.unchanged) this.sawUnchangedPage = true;
    if (page.state) this.lastState = page.state;
    for (const input of page.rejected ?? []) {
      this.counters.read++;
      this.counters.rejected++;
      this.rejections.fromConnector(input);
    }
    for (let i = 0; i < page.records.length; i++) {
      await this.onRecord(page.records[i], page.refs?.[i], page.hashes?.[i]);
      if (this.failure || this.stopping) return;
    }
  }

  private async onRecord(record: CanonicalRecord, ref: string | undefined, hash: string | undefined): Promise<void> {
    const id = record.id === undefined || record.id === null ? '' : String(record.id);
    const at = this.updatedAt(record, id);
    if (at !== null && at > this.untilMs) {
      this.deferred++; // after the run's signpost: the next run reads it
      this.rejections.noteDeferred(id);
      return;
    }
    if (this.plan.onlyIds && !this.plan.onlyIds.has(id)) return;
    this.counters.read++;
    this.coverage.note(this.chunk, at);
    this.seen?.add(id);
    const accepted = this.prepare(record, id, ref, hash);
    if (accepted) this.candidates.push(accepted);
    if (this.candidates.length >= this.plan.batchSize) await this.closeChunk();
  }

  /** fingerprint (and, without a source hash, map + check now); null when rejected */
  private prepare(record: CanonicalRecord, id: string, ref: string | undefined, hash: string | undefined): Candidate | null {
    if (id === '') return this.reject([{ field: 'id', reason: 'is empty' }], id, ref, record);
    if (hash) return { externalId: id, fingerprint: this.fingerprints.source(hash), record, ref };
    const payload = this.toCheckedPayload(record, id, ref, null);
    return payload === null ? null : { externalId: id, payload, fingerprint: this.fingerprints.payload(payload) };
  }

  /** map + check; null when rejected */
  private toCheckedPayload(record: CanonicalRecord, id: string, ref: string | undefined, fingerprint: string | null): unknown | null {
    let payload: unknown;
    try {
      payload = this.plan.handler.toPayload(record);
    } catch (e) {
      const field = e instanceof MappingError ? e.field : 'record';
      const reason = e instanceof MappingError ? e.reason : errorText(e);
      return this.reject([{ field, reason }], id, ref, record, fingerprint);
    }
    const problems = this.plan.handler.check(payload);
    if (problems.length) return this.reject(problems, id, ref, record, fingerprint ?? this.fingerprints.payload(payload));
    return payload;
  }

  /** updated_at in ms, with the sort check of streams that claim to be sorted */
  private updatedAt(record: CanonicalRecord, id: string): number | null {
    if (!this.plan.spec.incremental) return null;
    const value = (record as { updated_at?: Date | null }).updated_at;
    if (!isValidDate(value)) return null;
    const at = value.getTime();
    if (this.plan.spec.sorted && this.previousAt !== null && at < this.previousAt) {
      this.rewindTo = at;
      throw new StreamSortError(
        `connection ${this.run.connectionId} stream ${this.stream}: the stream claims to be sorted by updated_at, but record ${id} ` +
          `has updated_at ${value.toISOString()} after ${new Date(this.previousAt).toISOString()}; refusing to move the cursor on unsorted data`,
      );
    }
    if (this.plan.spec.sorted) this.previousAt = at;
    return at;
  }

  /** Rejected by the mapping or the checks: counted, logged for the next checkpoint, never sent. */
  private reject(problems: { field: string; reason: string }[], id: string, ref: string | undefined, record: unknown, fingerprint: string | null = null): null {
    this.counters.rejected++;
    this.rejections.fromChecks(id, problems, ref, record, fingerprint);
    return null;
  }

  // ---- chunks and batches -------------------------------------------------------------

  /** Looks the chunk's ids up in record_state (one IN query), drops the unchanged, queues the rest. */
  private async closeChunk(): Promise<void> {
    const chunk = this.chunk;
    const candidates = dedupeById(this.candidates);
    this.counters.unchanged += this.candidates.length - candidates.length;
    this.candidates = [];
    this.chunk = this.coverage.open();
    const needKnown = this.plan.useFingerprints || !!this.plan.handler.onCompleteRead;
    const known = needKnown && candidates.length ? await this.lookup(candidates.map((c) => c.externalId)) : new Map<string, string>();
    for (const c of candidates) {
      if (this.plan.useFingerprints && known.get(c.externalId) === c.fingerprint) {
        this.counters.unchanged++;
        this.rejections.noteUnchanged(c.externalId);
        continue;
      }
      const payload = c.payload !== undefined ? c.payload : this.toCheckedPayload(c.record!, c.externalId, c.ref, c.fingerprint);
      if (payload === null) continue;
      const withoutVisit = this.plan.handler.withoutVisit?.(payload) ?? false;
      this.outgoing.push({ externalId: c.externalId, payload, fingerprint: c.fingerprint, known: known.has(c.externalId), chunk, withoutVisit });
      chunk.pending++;
    }
    chunk.closed = true;
    while (this.outgoing.length >= this.plan.batchSize && !this.failure && !this.stopping) {
      await this.dispatch(this.outgoing.splice(0, this.plan.batchSize));
    }
    await this.checkpointIfIdle();
  }

  private async lookup(ids: string[]): Promise<Map<string, string>> {
    try {
      return await this.run.recordStates.fingerprints(this.run.connectionId, this.stream, ids);
    } catch (e) {
      throw new Error(`stream ${this.stream}: the store could not read record states: ${errorText(e)}`);
    }
  }

  private async dispatchAll(): Promise<void> {
    while (this.outgoing.length && !this.failure && !this.stopping) await this.dispatch(this.outgoing.splice(0, this.plan.batchSize));
  }

  /**
   * Waits for a free slot, then sends the batch without waiting for its answer. Once the run is stopped no
   * new batch leaves: its records stay pending in their chunk, so the cursor never passes them.
   * A slot is a request to the service: it is free once the service answers, while the batch's checkpoint
   * is still being written (a checkpoint can take longer than the answer when the store is busy).
   */
  private async dispatch(batch: Pending[]): Promise<void> {
    const limit = this.plan.handler.concurrent ? Math.max(1, this.plan.concurrency) : 1;
    while (this.inFlight.size >= limit) await Promise.race(this.inFlight);
    while (this.checkpointing.size >= limit) await Promise.race(this.checkpointing);
    if (this.failure || this.stopping) return;
    const job: Promise<void> = this.sendBatch(batch).finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
  }

  /** every request answered and every checkpoint written */
  private async drain(): Promise<void> {
    while (this.inFlight.size || this.checkpointing.size) await Promise.race([...this.inFlight, ...this.checkpointing]);
  }

  private async sendBatch(batch: Pending[]): Promise<void> {
    const context: HandlerContext = { tracker: this.run.tracker, connectionId: this.run.connectionId, log: (m) => this.run.logger.warn(m), retry: !!this.plan.onlyIds };
    let answer;
    try {
      answer = await this.plan.handler.send(context, batch);
    } catch (e) {
      if (isAccessRefusal(e)) return this.fail(e); // the run's problem, named as the service said it
      const first = batch[0]?.externalId;
      const last = batch[batch.length - 1]?.externalId;
      this.fail(new Error(`stream ${this.stream}: batch of ${batch.length} records (${first}…${last}) failed: ${errorText(e)}`));
      return;
    }
    const refused = new Map(answer.refused.map((r) => [r.externalId, r]));
    const uncertain = new Map((answer.uncertain ?? []).map((u) => [u.externalId, u.reason]));
    const acknowledged = [];
    for (const item of batch) {
      item.chunk.pending--;
      const refusal = refused.get(item.externalId);
      if (refusal) {
        this.counters.rejected++;
        const payload = refusal.payload !== undefined ? refusal.payload : item.payload;
        this.rejections.fromService(item.externalId, refusal.field, refusal.reason, payload, item.fingerprint);
        continue;
      }
      const doubt = uncertain.get(item.externalId);
      if (doubt !== undefined) {
        // kept like a rejection so that it is seen, and in the record state so that no later run sends it again
        // on its own (the service may hold it): only a retry by hand does
        this.counters.uncertain = (this.counters.uncertain ?? 0) + 1;
        this.rejections.fromService(item.externalId, 'delivery', doubt, item.payload, item.fingerprint);
        acknowledged.push({ externalId: item.externalId, fingerprint: item.fingerprint });
        continue;
      }
      this.counters.sent++;
      if (item.withoutVisit) this.counters.sent_without_visit++;
      acknowledged.push({ externalId: item.externalId, fingerprint: item.fingerprint });
    }
    if (answer.counters) addServiceCounters(this.run.counters, answer.counters);
    const written: Promise<void> = this.checkpointAnswered(acknowledged)
      .then(() => this.run.progress(this.stream))
      .catch((e: unknown) => this.fail(new Error(`stream ${this.stream}: checkpoint failed: ${errorText(e)}`)))
      .finally(() => this.checkpointing.delete(written));
    this.checkpointing.add(written);
  }

  // ---- checkpoints --------------------------------------------------------------------

  /**
   * Answered batches share a checkpoint: one is queued in the writer, and when its turn comes it takes every
   * acknowledgement answered until then (with the counters and cursor of that moment). A store slower than
   * the service thus writes fewer, larger checkpoints instead of falling behind by one per batch.
   */
  private checkpointAnswered(acknowledged: AcknowledgedRecord[]): Promise<void> {
    for (const record of acknowledged) this.unwritten.push(record);
    if (!this.queuedCheckpoint) {
      const queued = writeCheckpoint(this.run.writer, () => {
        this.queuedCheckpoint = null; // acknowledgements from now on go to the next one
        const taken = this.unwritten;
        this.unwritten = [];
        return this.snapshot(taken);
      }).then((checkpoint) => this.afterWrite(checkpoint));
      queued.catch(() => {
        if (this.queuedCheckpoint === queued) this.queuedCheckpoint = null; // failed before its turn
      });
      this.queuedCheckpoint = queued;
    }
    return this.queuedCheckpoint;
  }

  private async checkpoint(acknowledged: AcknowledgedRecord[], extra: CheckpointExtra = {}): Promise<void> {
    this.afterWrite(await writeCheckpoint(this.run.writer, this.snapshot(acknowledged, extra)));
  }

  /** What the store records now: the run's counters, rejections not yet written, the cursor of the done prefix. */
  private snapshot(acknowledged: AcknowledgedRecord[], extra: CheckpointExtra = {}): Checkpoint {
    const rewind = this.rewindTo !== null && this.plan.moveCursor ? new Date(this.rewindTo) : undefined;
    this.lastCheckpointAt = Date.now();
    return {
      runId: this.run.runId,
      connectionId: this.run.connectionId,
      stream: this.stream,
      acknowledged,
      forgotten: extra.forgotten,
      rejections: this.rejections.drain(),
      openRejections: this.rejections.openChanges(acknowledged),
      completeRead: extra.completeRead,
      streams: snapshotStreams(this.run.streams),
      counters: { ...this.run.counters },
      cursor: rewind ? undefined : extra.cursor ?? this.prefixCursor(),
      rewind,
      state: extra.state,
      resolveRejections: this.run.hasUnresolvedRejections,
    };
  }

  private afterWrite(checkpoint: Checkpoint): void {
    if (checkpoint.rejections.length) this.run.hasUnresolvedRejections = true;
  }

  /** Sorted streams: the highest updated_at of the fully done prefix, when it moved. */
  private prefixCursor(): Date | undefined {
    if (!this.plan.moveCursor || !this.plan.spec.incremental || !this.plan.spec.sorted) return undefined;
    this.coverage.advance();
    const covered = this.coverage.covered;
    if (covered === null || (this.writtenCursor !== null && covered <= this.writtenCursor)) return undefined;
    this.writtenCursor = covered;
    return new Date(covered);
  }

  /** A long stretch of unchanged records still moves the cursor now and then; rejections get written. */
  private async checkpointIfIdle(): Promise<void> {
    const due = Date.now() - this.lastCheckpointAt >= this.run.idleCheckpointMs;
    if (!due && this.rejections.size < 1000) return;
    this.coverage.advance();
    const moved = this.plan.spec.sorted && this.coverage.covered !== null && this.coverage.covered !== this.writtenCursor;
    if (moved || this.rejections.size) await this.checkpoint([]);
  }

  /** Stopped or failed: what is done stays done (rejections, the sorted prefix). */
  private async saveProgress(): Promise<void> {
    await this.checkpoint([]);
  }

  /** The whole stream is acknowledged: final cursor, connector state, managers gone from the source. */
  private async finish(): Promise<void> {
    const forgotten = await this.deleteMissing();
    let cursor: Date | undefined;
    if (this.plan.moveCursor && this.plan.spec.incremental && this.coverage.allDone) {
      const value = this.plan.spec.sorted ? this.coverage.covered : this.coverage.seenMax;
      if (value !== null && (this.writtenCursor === null || value > this.writtenCursor)) cursor = new Date(value);
    }
    // a record deferred past the signpost is not acknowledged: the source has not been read as a whole yet
    const complete = this.plan.saveState && this.deferred === 0;
    const state = complete && this.lastState ? stateToStore(this.lastState, this.plan.mappingVersion) : undefined;
    await this.checkpoint([], { cursor, state, forgotten, completeRead: this.completeRead() });
    if (this.deferred) this.run.logger.log(`${this.stream}: ${this.deferred} records updated after the run's start wait for the next run`);
    this.run.progress(this.stream, true);
  }

  /**
   * The read covered the whole source to its end (no since, no id filter, not skipped as unchanged): an open
   * rejection it did not meet again is gone from the source. An incremental read cannot know absence.
   */
  private completeRead(): Checkpoint['completeRead'] {
    if (!this.plan.wholeSource || this.plan.onlyIds || this.sawUnchangedPage) return undefined;
    return { kept: this.rejections.deferredKeys };
  }

  /** The stream's open rejections as it starts: which of them this run settles is told as it goes. */
  private async loadOpenRejections(): Promise<void> {
    try {
      this.rejections.startWith(await this.run.openRejections.keys(this.run.connectionId, this.stream));
    } catch (e) {
      throw new Error(`stream ${this.stream}: the store could not read open rejections: ${errorText(e)}`);
    }
  }

  private async deleteMissing(): Promise<string[] | undefined> {
    const handler = this.plan.handler;
    if (!handler.onCompleteRead || !this.seen || !this.run.deleteMissingManagers) return undefined;
    if (!this.plan.wholeSource || this.sawUnchangedPage) return undefined;
    const known = await this.run.recordStates.allIds(this.run.connectionId, this.stream).catch((e: unknown) => {
      throw new Error(`stream ${this.stream}: the store could not read record states: ${errorText(e)}`);
    });
    const missing = known.filter((id) => !this.seen!.has(id));
    if (!missing.length) return undefined;
    const context: HandlerContext = { tracker: this.run.tracker, connectionId: this.run.connectionId, log: (m) => this.run.logger.warn(m) };
    const deleted = await handler.onCompleteRead(context, missing);
    this.run.logger.log(`${this.stream}: deleted ${deleted.length} gone from the source (${deleted.slice(0, 10).join(', ')}${deleted.length > 10 ? ', …' : ''})`);
    return deleted;
  }

  private fail(e: unknown): void {
    if (!this.failure) this.failure = e instanceof Error ? e : new Error(String(e));
  }
}

/** The same id twice in one chunk (a file with duplicate rows): only the last version is sent. */
function dedupeById(candidates: Candidate[]): Candidate[] {
  if (candidates.length < 2 || new Set(candidates.map((c) => c.externalId)).size === candidates.length) return candidates;
  const byId = new Map<string, Candidate>();
  for (const c of candidates) {
    byId.delete(c.externalId); // the last version wins, in its read position
    byId.set(c.externalId, c);
  }
  return [...byId.values()];
}
