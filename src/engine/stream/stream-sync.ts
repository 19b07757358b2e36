import type { CanonicalRecord } from '../../connectors/canonical';
import type { Page, ReadCursor, SkippedField, StreamSpec } from '../../connectors/connector-definition';
import type { Checkpoint } from '../../store/checkpoint-writer';
import { isAccessRefusal } from '../../tracker/tracker-error';
import type { Chunk } from '../pipeline/coverage-tracker';
import { errorText } from '../engine-errors';
import { StreamCounters } from '../engine-types';
import { stateToStore } from '../pipeline/fingerprint';
import { PageGuard } from '../pipeline/page-guard';
import { BatchDispatcher, BatchSender } from '../pipeline/batch-dispatcher';
import { OutgoingRecord, settleAnswer } from '../pipeline/batch-answer';
import { Checkpointer } from '../pipeline/checkpointer';
import { Candidate, lastVersions, Mapped, Problem, RecordPipeline, RecordVerdicts } from '../pipeline/record-pipeline';
import type { OffloadedPage } from '../offload/offloaded-read';
import { RejectionLog } from '../pipeline/rejection-log';
import { RunScope, zeroStreamCounters } from '../pipeline/run-scope';
import type { BatchAnswer, HandlerContext, StreamHandler } from '../pipeline/sending/stream-handler';

/** fields left out of records sent that a stream warns about one by one; its notice counts the rest */
const LEFT_OUT_WARNINGS = 20;

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
  /** the stream's open rejection keys, when the run read them already (for its read from a cursor) */
  openRejections?: Set<string>;
  batchSize: number;
  concurrency: number;
}

export interface StreamOutcome {
  /** false when the run was asked to stop before the stream's end */
  complete: boolean;
}

/**
 * One stream of one run, top to bottom: read pages → the record pipeline (pipeline/record-pipeline.ts: map,
 * check, fingerprint, unchanged dropped; one store lookup per chunk) → batches (pipeline/batch-dispatcher.ts:
 * several in flight where order does not matter) → checkpoints (pipeline/checkpointer.ts: coalesced, with the
 * cursor of the fully done prefix) → at the end: the final cursor, the connector's state, managers gone.
 */
export class StreamSync implements RecordVerdicts<unknown>, BatchSender<OutgoingRecord, BatchAnswer> {
  private readonly counters: StreamCounters;
  private readonly rejections: RejectionLog;
  private readonly pageGuard: PageGuard;
  private readonly pipeline: RecordPipeline;
  private readonly checkpointer: Checkpointer;
  private readonly dispatcher: BatchDispatcher<OutgoingRecord, BatchAnswer>;
  private readonly context: HandlerContext;
  /** the chunk being read: its records are looked up together */
  private chunk: Chunk;
  private candidates: Candidate[] = [];
  private outgoing: OutgoingRecord[] = [];
  private failure: Error | null = null;
  private lastState: Record<string, unknown> | undefined;
  private sawUnchangedPage = false;
  /** ids read, for a handler that acts on those gone from the source (managers) */
  private readonly seen: Set<string> | null;
  /** optional fields the connector left out of a record (Page.skipped_fields), by its id, until the record's verdict */
  private readonly leftOut = new Map<string, SkippedField[]>();
  /** the first fields left out of records sent, for the stream's notice */
  private readonly leftOutSent: SkippedField[] = [];

  constructor(
    private readonly run: RunScope,
    private readonly plan: StreamPlan,
  ) {
    const stream = plan.spec.name;
    this.counters = run.streams[stream] ?? (run.streams[stream] = zeroStreamCounters());
    this.rejections = new RejectionLog(run.runId, run.connectionId, stream);
    this.pageGuard = new PageGuard(`connection ${run.connectionId} stream ${stream}`);
    this.pipeline = new RecordPipeline(plan.handler, plan.mappingVersion);
    this.checkpointer = new Checkpointer(
      run,
      { stream, incremental: plan.spec.incremental, sorted: !!plan.spec.sorted, moveCursor: plan.moveCursor, untilMs: plan.window.until.getTime() },
      this.rejections,
    );
    const limit = plan.handler.concurrent ? Math.max(1, plan.concurrency) : 1;
    this.dispatcher = new BatchDispatcher(limit, this, () => !!this.failure || this.stopping);
    this.context = { tracker: run.tracker, connectionId: run.connectionId, runId: run.runId, log: (m) => run.logger.warn(m), signal: run.signal, retry: !!plan.onlyIds };
    this.chunk = this.checkpointer.openChunk();
    this.seen = plan.handler.onCompleteRead ? new Set() : null;
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
    await this.dispatcher.drain();
    this.noticeLeftOut();
    this.noticeHandler();
    if (this.failure) {
      // A refused Api-key or project: nothing was acknowledged, and nothing of this run is kept.
      if (!isAccessRefusal(this.failure)) await this.checkpointer.write().catch(() => undefined);
      throw this.failure;
    }
    if (aborted) {
      await this.checkpointer.write(); // what is done stays done (rejections, the sorted prefix)
      return { complete: false };
    }
    await this.finish();
    return { complete: true };
  }

  // ---- reading -------------------------------------------------------------------------

  /** true when stopped by the run's signal */
  private async readAll(): Promise<boolean> {
    try {
      for await (const page of this.plan.read()) {
        if (this.stopping) return true;
        await this.onPage(page);
        if (this.failure) return false;
        if (this.stopping) return true;
        this.run.progress(this.stream, false, page.progress);
      }
    } catch (e) {
      if (this.stopping) return true;
      this.fail(e);
      return false;
    }
    if (this.stopping) return true;
    await this.closeChunk();
    while (this.outgoing.length && !this.failure && !this.stopping) await this.dispatcher.dispatch(this.outgoing.splice(0, this.plan.batchSize));
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
      // a record the source still holds, rejected for a typo, is not gone: it must not be deleted from the service
      if (input.id) this.seen?.add(input.id);
    }
    if (page.skipped_fields?.length) this.noteLeftOut(page.skipped_fields);
    if (page.deferred_future) this.counters.deferred_future = (this.counters.deferred_future ?? 0) + page.deferred_future;
    const mapped = (page as Partial<OffloadedPage>).mapped;
    for (let i = 0; i < page.records.length; i++) {
      if (this.onRecord(page.records[i], page.refs?.[i], page.hashes?.[i], mapped?.[i])) await this.closeChunk();
      if (this.failure || this.stopping) return;
    }
  }

  /**
   * Signpost and id filter, then the pipeline's intake; true when the chunk is full and goes on through the
   * pipeline. Synchronous: an async step per record cost a promise and a frame each (0.5 KB, 0.6 GB of garbage
   * in a 1,000,000-deal sync).
   */
  private onRecord(record: CanonicalRecord, ref: string | undefined, hash: string | undefined, mapped: Mapped | undefined): boolean {
    const id = record.id === undefined || record.id === null ? '' : String(record.id);
    const at = this.checkpointer.timeOf(record, id);
    if (this.checkpointer.pastSignpost(at, id) || (this.plan.onlyIds && !this.plan.onlyIds.has(id))) {
      if (this.leftOut.size) this.leftOut.delete(id);
      return false;
    }
    this.counters.read++;
    this.checkpointer.note(this.chunk, at);
    this.seen?.add(id);
    const candidate = this.pipeline.intake(record, id, ref, hash, this, mapped);
    if (candidate) this.candidates.push(candidate);
    return this.candidates.length >= this.plan.batchSize;
  }

  // ---- the chunk through the pipeline --------------------------------------------------

  /** One record_state IN lookup for the chunk, the rest of the pipeline, then full batches leave. */
  private async closeChunk(): Promise<void> {
    const candidates = lastVersions(this.candidates);
    this.counters.unchanged += this.candidates.length - candidates.length;
    this.candidates = [];
    const needStored = this.plan.useFingerprints || !!this.plan.handler.onCompleteRead;
    const stored = needStored && candidates.length ? await this.lookup(candidates) : NOTHING_STORED;
    this.pipeline.settle(candidates, stored, this.plan.useFingerprints, this);
    this.chunk.closed = true;
    this.chunk = this.checkpointer.openChunk();
    while (this.outgoing.length >= this.plan.batchSize && !this.failure && !this.stopping) {
      await this.dispatcher.dispatch(this.outgoing.splice(0, this.plan.batchSize));
    }
    await this.checkpointer.ifIdle();
  }

  private async lookup(candidates: Candidate[]): Promise<Map<string, string>> {
    try {
      return await this.run.recordStates.fingerprints(this.run.connectionId, this.stream, candidates.map((c) => c.externalId));
    } catch (e) {
      throw new Error(`stream ${this.stream}: the store could not read record states: ${errorText(e)}`);
    }
  }

  /** RecordVerdicts: queued for a batch; its chunk waits for its answer */
  accept(candidate: Candidate, payload: unknown, fingerprint: string, stored: string | undefined): void {
    if (this.leftOut.size) this.reportLeftOut(candidate);
    const withoutVisit = candidate.mapped ? candidate.mapped.withoutVisit : (this.plan.handler.withoutVisit?.(payload) ?? false);
    this.outgoing.push({ externalId: candidate.externalId, payload, fingerprint, known: stored !== undefined, chunk: this.chunk, withoutVisit });
    this.chunk.pending++;
  }

  /** RecordVerdicts: the service holds this version already */
  unchanged(candidate: Candidate): void {
    if (this.leftOut.size) this.leftOut.delete(candidate.externalId); // reported by the run that sent this version
    this.counters.unchanged++;
    this.rejections.noteUnchanged(candidate.externalId);
  }

  /** RecordVerdicts: refused by the mapping or the checks: counted, logged for the next checkpoint, never sent */
  reject(candidate: Candidate, problems: Problem[], fingerprint: string | null): void {
    if (this.leftOut.size) this.leftOut.delete(candidate.externalId);
    this.counters.rejected++;
    this.rejections.fromChecks(candidate.externalId, problems, candidate.ref, candidate.record, fingerprint);
  }

  // ---- optional fields left out ----------------------------------------------------------

  /** A page's fields left out, by record: a record read again (a later page) carries its own, or none. */
  private noteLeftOut(skipped: SkippedField[]): void {
    const fresh = new Set<string>();
    for (const field of skipped) {
      const list = fresh.has(field.id) ? this.leftOut.get(field.id) : undefined;
      if (list) list.push(field);
      else this.leftOut.set(field.id, [field]);
      fresh.add(field.id);
    }
  }

  /**
   * A record sent without fields the connector could not read: counted (`skipped_fields_by_invalid_format`, as
   * the service counts the fields it drops from orders it saves) and warned naming the connection, the record and
   * the field, as a rejection names them; the first LEFT_OUT_WARNINGS of a stream, the rest in its notice.
   */
  private reportLeftOut(candidate: Candidate): void {
    const fields = this.leftOut.get(candidate.externalId);
    if (!fields) return;
    this.leftOut.delete(candidate.externalId);
    for (const field of fields) {
      const count = (this.counters.skipped_fields_by_invalid_format ?? 0) + 1;
      this.counters.skipped_fields_by_invalid_format = count;
      if (count <= LEFT_OUT_WARNINGS) {
        this.leftOutSent.push(field);
        const where = field.ref ? ` (${field.ref})` : '';
        this.run.logger.warn(`connection ${this.run.connectionId}: ${this.stream} record ${candidate.externalId}${where}: field ${field.field} left out, the record is sent without it: ${field.reason}`);
      }
    }
  }

  /** One notice per stream and run (the status page shows it with the counters) when fields were left out. */
  private noticeLeftOut(): void {
    const count = this.counters.skipped_fields_by_invalid_format ?? 0;
    if (!count) return;
    const shown = this.leftOutSent.slice(0, 3).map((f) => `${f.field} of ${f.id} (${f.reason})`);
    const more = count > shown.length ? `, and ${count - shown.length} more (the log names the first ${LEFT_OUT_WARNINGS})` : '';
    const notice = `${this.stream}: ${count} ${count === 1 ? 'field' : 'fields'} that could not be read left out, the records sent without them (skipped_fields_by_invalid_format): ${shown.join('; ')}${more}`;
    this.counters.notices = [...(this.counters.notices ?? []), notice];
  }

  /** The handler's notices of the run (a failed run's too: what its answered batches hid is as hidden). */
  private noticeHandler(): void {
    const notices = this.plan.handler.notices?.(this.context) ?? [];
    if (notices.length) this.counters.notices = [...(this.counters.notices ?? []), ...notices];
  }

  // ---- batches (BatchSender) -----------------------------------------------------------

  send(batch: OutgoingRecord[]): Promise<BatchAnswer> {
    return this.plan.handler.send(this.context, batch);
  }

  answered(batch: OutgoingRecord[], answer: BatchAnswer): Promise<void> {
    const acknowledged = settleAnswer(batch, answer, this.counters, this.run.counters, this.rejections);
    return this.checkpointer
      .acknowledged(acknowledged)
      .then(() => this.run.progress(this.stream))
      .catch((e: unknown) => this.fail(new Error(`stream ${this.stream}: checkpoint failed: ${errorText(e)}`)));
  }

  failed(batch: OutgoingRecord[], e: unknown): void {
    if (isAccessRefusal(e)) return this.fail(e); // the run's problem, named as the service said it
    const first = batch[0]?.externalId;
    const last = batch[batch.length - 1]?.externalId;
    this.fail(new Error(`stream ${this.stream}: batch of ${batch.length} records (${first}…${last}) failed: ${errorText(e)}`));
  }

  // ---- the end -------------------------------------------------------------------------

  /** The whole stream is acknowledged: final cursor, connector state, managers gone from the source. */
  private async finish(): Promise<void> {
    const forgotten = await this.deleteMissing();
    const cursor = this.checkpointer.finalCursor();
    // a record deferred past the signpost is not acknowledged: the source has not been read as a whole yet
    const deferred = this.checkpointer.deferred;
    const complete = this.plan.saveState && deferred === 0;
    const state = complete && this.lastState ? stateToStore(this.lastState, this.plan.mappingVersion) : undefined;
    await this.checkpointer.write({ cursor, state, forgotten, completeRead: this.completeRead() });
    if (deferred) this.run.logger.log(`${this.stream}: ${deferred} records updated after the run's start wait for the next run`);
    // the deals this run sent without a visit: not those read again and left unchanged (the source's own count)
    const withoutVisit = this.counters.sent_without_visit;
    if (withoutVisit) this.run.logger.warn(`${this.stream}: ${withoutVisit} ${withoutVisit === 1 ? 'deal' : 'deals'} sent without a visit number`);
    this.run.progress(this.stream, true);
  }

  /**
   * The read covered the whole source to its end (no since, no id filter, not skipped as unchanged): an open
   * rejection it did not meet again is gone from the source. An incremental read cannot know absence, and neither
   * can a read of nothing at all (an export that came out with its header only has usually failed).
   */
  private completeRead(): Checkpoint['completeRead'] {
    if (!this.plan.wholeSource || this.plan.onlyIds || this.sawUnchangedPage) return undefined;
    if (this.counters.read === 0) return undefined;
    return { kept: this.rejections.deferredKeys };
  }

  /** The stream's open rejections as it starts: which of them this run settles is told as it goes. */
  private async loadOpenRejections(): Promise<void> {
    try {
      this.rejections.startWith(this.plan.openRejections ?? await this.run.openRejections.keys(this.run.connectionId, this.stream));
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
    if (this.seen.size === 0) {
      // an export that came out empty (a failed report, a wrong filter) would delete every manager of the service
      this.run.logger.warn(`${this.stream}: the source holds none; the ${known.length} known are not deleted (delete them in the service if they are gone)`);
      return undefined;
    }
    const context: HandlerContext = { tracker: this.run.tracker, connectionId: this.run.connectionId, log: (m) => this.run.logger.warn(m) };
    const deleted = await handler.onCompleteRead(context, missing);
    this.run.logger.log(`${this.stream}: deleted ${deleted.length} gone from the source (${deleted.slice(0, 10).join(', ')}${deleted.length > 10 ? ', …' : ''})`);
    return deleted;
  }

  private fail(e: unknown): void {
    if (!this.failure) this.failure = e instanceof Error ? e : new Error(String(e));
  }
}

const NOTHING_STORED: ReadonlyMap<string, string> = new Map();
