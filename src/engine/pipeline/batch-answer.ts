import type { AcknowledgedRecord } from '../../store/repositories/record-state.store';
import type { Chunk } from './coverage-tracker';
import type { ServiceCounters, StreamCounters } from '../engine-types';
import type { RejectionLog } from './rejection-log';
import { addServiceCounters } from './service-answer';
import type { BatchAnswer, OutgoingItem } from './sending/stream-handler';

/** A record on its way: what the handler sends, and what the stream needs back once it is answered. */
export interface OutgoingRecord extends OutgoingItem {
  fingerprint: string;
  /** the chunk it was read in: its cursor waits for this record */
  chunk: Chunk;
  /** deals: the payload carries no visit (counted `sent_without_visit`) */
  withoutVisit: boolean;
}

/**
 * Accounts for the service's answer to one batch: refused records become rejections, uncertain ones are kept
 * like rejections yet acknowledged (no later run sends them on its own), the rest count as sent. Each record
 * leaves its chunk. Returns what the checkpoint writes as acknowledged.
 */
export function settleAnswer(
  batch: OutgoingRecord[],
  answer: BatchAnswer,
  counters: StreamCounters,
  serviceCounters: ServiceCounters,
  rejections: RejectionLog,
): AcknowledgedRecord[] {
  const refused = answer.refused.length ? new Map(answer.refused.map((r) => [r.externalId, r])) : null;
  const uncertain = answer.uncertain?.length ? new Map(answer.uncertain.map((u) => [u.externalId, u.reason])) : null;
  const acknowledged: AcknowledgedRecord[] = [];
  for (const item of batch) {
    item.chunk.pending--;
    const refusal = refused?.get(item.externalId);
    if (refusal) {
      counters.rejected++;
      const payload = refusal.payload !== undefined ? refusal.payload : item.payload;
      rejections.fromService(item.externalId, refusal.field, refusal.reason, payload, item.fingerprint);
      continue;
    }
    const doubt = uncertain?.get(item.externalId);
    if (doubt !== undefined) {
      counters.uncertain = (counters.uncertain ?? 0) + 1;
      rejections.fromService(item.externalId, 'delivery', doubt, item.payload, item.fingerprint);
      acknowledged.push({ externalId: item.externalId, fingerprint: item.fingerprint });
      continue;
    }
    counters.sent++;
    if (item.withoutVisit) counters.sent_without_visit++;
    acknowledged.push({ externalId: item.externalId, fingerprint: item.fingerprint });
  }
  if (answer.counters) addServiceCounters(serviceCounters, answer.counters);
  return acknowledged;
}
