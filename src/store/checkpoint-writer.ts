import { EntityManager } from 'typeorm';
import { isoNow } from './iso-time';
import type { RejectedRecordRow } from './records';
import { CursorStore } from './repositories/cursor.store';
import { OpenRejectionStore } from './repositories/open-rejection.store';
import { AcknowledgedRecord, RecordStateStore } from './repositories/record-state.store';
import { RejectedRecordStore } from './repositories/rejected-record.store';
import { RunStore } from './repositories/run.store';
import type { ServiceCounters, StreamCounters } from '../runs/run-vocabulary';
import { SerialWriter } from './serial-writer';

export type NewRejection = Omit<RejectedRecordRow, 'id' | 'created_at' | 'resolved'>;

/**
 * Everything one acknowledged batch changes, written in ONE transaction: a sync's batch (acknowledged by the
 * service) and an outbound flow's batch (answered by the CRM) alike.
 */
export interface Checkpoint {
  runId: number;
  connectionId: string;
  stream: string;
  acknowledged: AcknowledgedRecord[];
  /** managers deleted from the service: their record states go */
  forgotten?: string[];
  rejections: NewRejection[];
  /** false: the rejections stay in the run's list only, not in the connection's open rejections (default true) */
  openRejected?: boolean;
  /** a sync's counters so far */
  streams?: Partial<Record<string, StreamCounters>>;
  counters?: ServiceCounters;
  /** an outbound run's counters so far (its flow's) */
  flowCounters?: Record<string, number>;
  cursor?: Date;
  /** a sort violation: the cursor goes back to this value if it is past it */
  rewind?: Date;
  state?: Record<string, unknown>;
  /** some earlier rejection of this connection is unresolved: resolve those now acknowledged */
  resolveRejections: boolean;
  /**
   * open rejections settled or restated (the rejections above enter the open set in any case): keys whose rows
   * from earlier runs go (the engine's rejection log builds it)
   */
  openRejections?: { dropEarlier: string[] };
  /**
   * the stream's read was complete (the whole source, to its end): its open rejections that this run did not
   * reject again are gone from the source, except `kept` (records deferred to the next run)
   */
  completeRead?: { kept: string[] };
}

/** Writes checkpoints through the store's serial writer (see writeCheckpoint). */
export class CheckpointWriter {
  constructor(private readonly writer: SerialWriter) {}

  write(checkpoint: Checkpoint | (() => Checkpoint)): Promise<Checkpoint> {
    return writeCheckpoint(this.writer, checkpoint);
  }
}

/**
 * Writes a checkpoint in its turn in the writer's queue. Given a function, the checkpoint is built when its
 * turn comes (once: a retried group commit writes the same one again). Resolves with what was written.
 */
export function writeCheckpoint(writer: SerialWriter, checkpoint: Checkpoint | (() => Checkpoint)): Promise<Checkpoint> {
  let built: Checkpoint | null = typeof checkpoint === 'function' ? null : checkpoint;
  return writer.transaction(async (m) => {
    built ??= (checkpoint as () => Checkpoint)();
    await applyCheckpoint(m, built);
    return built;
  });
}

async function applyCheckpoint(m: EntityManager, cp: Checkpoint): Promise<void> {
  const now = isoNow();
  if (cp.acknowledged.length) {
    await RecordStateStore.upsert(m, cp.connectionId, cp.stream, cp.acknowledged, now);
    if (cp.resolveRejections) {
      await RecordStateStore.resolveRejections(m, cp.connectionId, cp.stream, cp.acknowledged.map((a) => a.externalId));
    }
  }
  if (cp.forgotten?.length) await RecordStateStore.remove(m, cp.connectionId, cp.stream, cp.forgotten);
  if (cp.rejections.length) {
    await RejectedRecordStore.insert(m, cp.rejections.map((r) => ({ ...r, resolved: false, created_at: now })));
    if (cp.openRejected !== false) await OpenRejectionStore.record(m, cp.runId, cp.rejections, now);
  }
  if (cp.openRejections?.dropEarlier.length) {
    await OpenRejectionStore.dropEarlier(m, cp.connectionId, cp.stream, cp.runId, cp.openRejections.dropEarlier);
  }
  if (cp.completeRead) await OpenRejectionStore.closeGone(m, cp.connectionId, cp.stream, cp.runId, cp.completeRead.kept);
  if (cp.streams && cp.counters) await RunStore.writeCounters(m, cp.runId, cp.streams, cp.counters);
  if (cp.flowCounters) await RunStore.writeFlowCounters(m, cp.runId, cp.flowCounters);
  if (cp.cursor) await CursorStore.advance(m, cp.connectionId, cp.stream, cp.cursor);
  if (cp.rewind) await CursorStore.rewind(m, cp.connectionId, cp.stream, cp.rewind);
  if (cp.state) await CursorStore.saveState(m, cp.connectionId, cp.stream, cp.state);
}
