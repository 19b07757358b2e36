import { DataSource } from 'typeorm';
import { RunEntity } from '../entities/run.entity';
import { SerialWriter } from '../serial-writer';
import { RecordStateStore } from './record-state.store';
import { RejectedRecordStore } from './rejected-record.store';
import { WriteBackCounters } from '../../runs/run-vocabulary';

/** The record_state stream holding the fingerprint of the values last written into each deal. */
export const WRITE_BACK_STREAM = 'write_back';

/** One answered CRM batch of a write-back run. */
export interface WriteBackBatch {
  runId: number;
  connectionId: string;
  /** deals the CRM took, with the fingerprint of the values written */
  written: { externalId: string; fingerprint: string }[];
  rejected: { externalId: string; field: string; reason: string; fingerprint: string }[];
  /** the run's counters so far */
  counters: WriteBackCounters;
}

/** What write-back keeps: the fingerprints of written values (record_state) and its runs' counters and rejections. */
export class WriteBackStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  /** The fingerprints of the values last written into these deals. */
  fingerprints(connectionId: string, dealIds: string[]): Promise<Map<string, string>> {
    return new RecordStateStore(this.dataSource).fingerprints(connectionId, WRITE_BACK_STREAM, dealIds);
  }

  /** The ids of the connection's deals the service acknowledged (record_state of the deals stream), of these. */
  async knownDeals(connectionId: string, dealIds: string[]): Promise<Set<string>> {
    return new Set((await new RecordStateStore(this.dataSource).fingerprints(connectionId, 'deals', dealIds)).keys());
  }

  /** One transaction: what the CRM took, what it refused, the counters so far. */
  async recordBatch(batch: WriteBackBatch): Promise<void> {
    const now = new Date().toISOString();
    await this.writer.transaction(async (m) => {
      await RecordStateStore.upsert(m, batch.connectionId, WRITE_BACK_STREAM, batch.written, now);
      await RejectedRecordStore.insert(
        m,
        batch.rejected.map((r) => ({
          run_id: batch.runId, connection_id: batch.connectionId, stream: WRITE_BACK_STREAM, external_id: r.externalId,
          field: r.field, reason: r.reason.slice(0, 2000), ref: null, excerpt: null, source: 'connector',
          fingerprint: r.fingerprint, resolved: false, created_at: now,
        })),
      );
      await m.getRepository(RunEntity).update({ id: batch.runId }, { write_back: { ...batch.counters } });
    });
  }

  /** The counters alone (a pass that wrote nothing). */
  async recordCounters(runId: number, counters: WriteBackCounters): Promise<void> {
    await this.writer.run((m) => m.getRepository(RunEntity).update({ id: runId }, { write_back: { ...counters } }));
  }
}
