import type { CanonicalRecord, StreamName } from '../../connectors/canonical';
import { Checkpoint, writeCheckpoint } from '../../store/checkpoint-writer';
import type { AcknowledgedRecord } from '../../store/repositories/record-state.store';
import { Chunk, CoverageTracker } from './coverage-tracker';
import { StreamSortError } from '../engine-errors';
import type { RejectionLog } from './rejection-log';
import { RunScope, snapshotStreams } from './run-scope';
import { isValidDate } from '../mappings/mapping-error';

/** What only some checkpoints carry: the final cursor, the connector's state, managers deleted from the service. */
export type CheckpointExtra = Pick<Checkpoint, 'cursor' | 'state' | 'forgotten' | 'completeRead'>;

/** What of the run a checkpointer reads and writes. */
export type CheckpointScope = Pick<RunScope, 'runId' | 'connectionId' | 'writer' | 'streams' | 'counters' | 'hasUnresolvedRejections' | 'idleCheckpointMs'>;

export interface CheckpointerPlan {
  stream: StreamName;
  /** the stream has updated_at (a cursor), and claims to be read in its order */
  incremental: boolean;
  sorted: boolean;
  /** write the cursor (not in a run restricted to some ids) */
  moveCursor: boolean;
  /** the signpost: the run's upper bound (start − lag), ms */
  untilMs: number;
}

/**
 * What a stream writes to the store, and when: the cursor (of the fully done prefix; pulled back on a sort
 * violation), the signpost (records updated after it wait for the next run), and checkpoints coalesced so that
 * a store slower than the service writes fewer, larger ones.
 */
export class Checkpointer {
  private readonly coverage = new CoverageTracker();
  /** acknowledged, waiting for the queued checkpoint */
  private unwritten: AcknowledgedRecord[] = [];
  private queued: Promise<void> | null = null;
  private writtenCursor: number | null = null;
  /** updated_at of a record that broke the sort order: the cursor must not stay past it */
  private rewindTo: number | null = null;
  private previousAt: number | null = null;
  private lastWriteAt = Date.now();
  /** records read after the signpost: left for the next run */
  deferred = 0;

  constructor(
    private readonly run: CheckpointScope,
    private readonly plan: CheckpointerPlan,
    private readonly rejections: RejectionLog,
  ) {}

  /** A new chunk of records in read order: the cursor passes it once every record of it is done. */
  openChunk(): Chunk {
    return this.coverage.open();
  }

  /**
   * updated_at in ms (null when the stream has no cursor or the record no date), with the sort check of streams
   * that claim to be sorted: a record going backwards fails the stream and pulls the cursor back to it.
   */
  timeOf(record: CanonicalRecord, id: string): number | null {
    if (!this.plan.incremental) return null;
    const value = (record as { updated_at?: Date | null }).updated_at;
    if (!isValidDate(value)) return null;
    const at = value.getTime();
    if (this.plan.sorted && this.previousAt !== null && at < this.previousAt) {
      this.rewindTo = at;
      throw new StreamSortError(
        `connection ${this.run.connectionId} stream ${this.plan.stream}: the stream claims to be sorted by updated_at, but record ${id} ` +
          `has updated_at ${value.toISOString()} after ${new Date(this.previousAt).toISOString()}; refusing to move the cursor on unsorted data`,
      );
    }
    if (this.plan.sorted) this.previousAt = at;
    return at;
  }

  /** true when the record was updated after the run's signpost: not processed, the next run reads it */
  pastSignpost(at: number | null, id: string): boolean {
    if (at === null || at <= this.plan.untilMs) return false;
    this.deferred++;
    this.rejections.noteDeferred(id);
    return true;
  }

  /** a record of `chunk` was read */
  note(chunk: Chunk, at: number | null): void {
    this.coverage.note(chunk, at);
  }

  /**
   * Answered batches share a checkpoint: one is queued in the writer, and when its turn comes it takes every
   * acknowledgement answered until then (with the counters and cursor of that moment).
   */
  acknowledged(records: AcknowledgedRecord[]): Promise<void> {
    for (const record of records) this.unwritten.push(record);
    if (!this.queued) {
      const queued = writeCheckpoint(this.run.writer, () => {
        this.queued = null; // acknowledgements from now on go to the next one
        const taken = this.unwritten;
        this.unwritten = [];
        return this.snapshot(taken);
      }).then((checkpoint) => this.afterWrite(checkpoint));
      queued.catch(() => {
        if (this.queued === queued) this.queued = null; // failed before its turn
      });
      this.queued = queued;
    }
    return this.queued;
  }

  /** A checkpoint of its own, now (progress on a stop or a failure, the stream's end). */
  async write(extra: CheckpointExtra = {}): Promise<void> {
    this.afterWrite(await writeCheckpoint(this.run.writer, this.snapshot([], extra)));
  }

  /** A long stretch of unchanged records still moves the cursor now and then; rejections get written. */
  async ifIdle(): Promise<void> {
    const due = Date.now() - this.lastWriteAt >= this.run.idleCheckpointMs;
    if (!due && this.rejections.size < 1000) return;
    this.coverage.advance();
    const moved = this.plan.sorted && this.coverage.covered !== null && this.coverage.covered !== this.writtenCursor;
    if (moved || this.rejections.size) await this.write();
  }

  /** At a complete end: the cursor the stream ends with (sorted: the done prefix; unsorted: the latest read), if it moved. */
  finalCursor(): Date | undefined {
    if (!this.plan.moveCursor || !this.plan.incremental || !this.coverage.allDone) return undefined;
    const value = this.plan.sorted ? this.coverage.covered : this.coverage.seenMax;
    return value !== null && (this.writtenCursor === null || value > this.writtenCursor) ? new Date(value) : undefined;
  }

  /** What the store records now: the run's counters, rejections not yet written, the cursor of the done prefix. */
  private snapshot(acknowledged: AcknowledgedRecord[], extra: CheckpointExtra = {}): Checkpoint {
    const rewind = this.rewindTo !== null && this.plan.moveCursor ? new Date(this.rewindTo) : undefined;
    this.lastWriteAt = Date.now();
    return {
      runId: this.run.runId,
      connectionId: this.run.connectionId,
      stream: this.plan.stream,
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
    if (!this.plan.moveCursor || !this.plan.incremental || !this.plan.sorted) return undefined;
    this.coverage.advance();
    const covered = this.coverage.covered;
    if (covered === null || (this.writtenCursor !== null && covered <= this.writtenCursor)) return undefined;
    this.writtenCursor = covered;
    return new Date(covered);
  }
}
