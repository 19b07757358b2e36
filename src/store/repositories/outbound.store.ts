import { DataSource } from 'typeorm';
import { writeCheckpoint } from '../checkpoint-writer';
import { SerialWriter } from '../serial-writer';
import { RecordStateStore } from './record-state.store';
import { RunStore } from './run.store';
import { LeadDeliveryStore } from './lead-delivery.store';
import { WriteBackCounters } from '../../runs/run-vocabulary';

/** The record_state stream holding the fingerprint of the values last written into each deal. */
export const WRITE_BACK_STREAM = 'write_back';

/** One answered CRM batch of an outbound run. */
export interface OutboundBatch {
  runId: number;
  connectionId: string;
  /** the record_state stream of the flow's fingerprints (also the stream of its rejected records) */
  stream: string;
  /** items the CRM took, with the fingerprint of what was written */
  written: { externalId: string; fingerprint: string }[];
  rejected: { externalId: string; field: string; reason: string; fingerprint: string }[];
  /** the run's counters so far (the flow's) */
  counters: Record<string, number>;
}

/**
 * What outbound flows keep: per flow's stream the fingerprints of what was written (record_state), and their
 * runs' counters (`run.flow_counters`) and refusals (rejected records).
 */
export class OutboundStore {
  /** lead delivery's own records (proxy lead → deal, its window) */
  readonly leads: LeadDeliveryStore;

  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {
    this.leads = new LeadDeliveryStore(dataSource, writer);
  }

  /** The fingerprints of what was last written for these items. */
  fingerprints(connectionId: string, stream: string, ids: string[]): Promise<Map<string, string>> {
    return new RecordStateStore(this.dataSource).fingerprints(connectionId, stream, ids);
  }

  /** Of these ids, those the service acknowledged for a sync stream of the connection (its record_state). */
  async known(connectionId: string, stream: string, ids: string[]): Promise<Set<string>> {
    return new Set((await new RecordStateStore(this.dataSource).fingerprints(connectionId, stream, ids)).keys());
  }

  /** The ids a sync stream of the connection delivered since `since`: how many, and which when at most `max`. */
  acknowledgedSince(connectionId: string, stream: string, since: Date, max: number): Promise<{ count: number; ids: string[] | null }> {
    return new RecordStateStore(this.dataSource).acknowledgedSince(connectionId, stream, since.toISOString(), max);
  }

  /** One transaction (a checkpoint, as a sync's batch is written): what the CRM took, what it refused, the counters so far. */
  async recordBatch(batch: OutboundBatch): Promise<void> {
    await writeCheckpoint(this.writer, {
      runId: batch.runId,
      connectionId: batch.connectionId,
      stream: batch.stream,
      acknowledged: batch.written,
      resolveRejections: false,
      rejections: batch.rejected.map((r) => ({
        run_id: batch.runId, connection_id: batch.connectionId, stream: batch.stream, external_id: r.externalId,
        field: r.field, reason: r.reason.slice(0, 2000), ref: null, excerpt: null, source: 'connector', fingerprint: r.fingerprint,
      })),
      openRejected: false,
      flowCounters: batch.counters,
    });
  }

  /** The counters alone (a pass that wrote nothing). */
  async recordCounters(runId: number, counters: Record<string, number>): Promise<void> {
    await this.writer.run((m) => RunStore.writeFlowCounters(m, runId, counters));
  }
}

/** One answered CRM batch of a write-back run. */
export type WriteBackBatch = Omit<OutboundBatch, 'stream' | 'counters'> & { counters: WriteBackCounters };

/** Write-back's view of the outbound store: its stream (`write_back`) and the deals stream fixed. */
export class WriteBackStore {
  constructor(private readonly outbound: OutboundStore) {}

  /** The fingerprints of the values last written into these deals. */
  fingerprints(connectionId: string, dealIds: string[]): Promise<Map<string, string>> {
    return this.outbound.fingerprints(connectionId, WRITE_BACK_STREAM, dealIds);
  }

  /** The ids of the connection's deals the service acknowledged (record_state of the deals stream), of these. */
  knownDeals(connectionId: string, dealIds: string[]): Promise<Set<string>> {
    return this.outbound.known(connectionId, 'deals', dealIds);
  }

  recordBatch(batch: WriteBackBatch): Promise<void> {
    return this.outbound.recordBatch({ ...batch, stream: WRITE_BACK_STREAM });
  }

  recordCounters(runId: number, counters: WriteBackCounters): Promise<void> {
    return this.outbound.recordCounters(runId, counters);
  }
}
