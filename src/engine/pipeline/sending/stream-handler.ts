import type { CanonicalRecord } from '../../../connectors/canonical';
import type { TrackerClient } from '../../../tracker/tracker-client';
import type { ServiceCounters } from '../../engine-types';
import type { StreamMapping } from '../../mappings/stream-mapping';

export type { MappingVersions } from '../../mappings/stream-mapping';

/** One record of an outgoing batch. */
export interface OutgoingItem<P = unknown> {
  externalId: string;
  payload: P;
  /** the service acknowledged an earlier version (managers: update instead of add) */
  known: boolean;
}

/** What the service said about one batch. */
export interface BatchAnswer {
  /** add-orders counters, when the operation has them */
  counters?: Partial<ServiceCounters>;
  /** records the service refused (not acknowledged; they become rejected records) */
  /** `payload`: what was sent, for a handler that let go of the items' payloads once they were serialised */
  refused: { externalId: string; field: string; reason: string; payload?: unknown }[];
  /**
   * records whose create call may or may not have landed, and that were not sent again to avoid a duplicate:
   * not acknowledged, counted `uncertain`, kept with the reason like a rejected record
   */
  uncertain?: { externalId: string; reason: string }[];
}

export interface HandlerContext {
  tracker: TrackerClient;
  connectionId: string;
  /** the run's id, for a reason that tells how to retry it */
  runId?: number;
  log: (message: string) => void;
  /** the run's: aborted when it is stopped (a shutdown), when what a batch's answer needs can no longer be asked */
  signal?: AbortSignal;
  /** a retry by hand of rejected (or uncertain) records: send them even where the record state says sent */
  retry?: boolean;
}

/**
 * How one stream's records become payloads (its mapping, mappings/<stream>.ts) and reach the service (one per
 * stream, in pipeline/sending/<stream>.ts).
 */
export interface StreamHandler<R extends CanonicalRecord = any, P = any> extends StreamMapping<R, P> {
  /** sends one batch; throws when the whole batch failed (after the client's retries) */
  send(ctx: HandlerContext, items: OutgoingItem<P>[]): Promise<BatchAnswer>;
  /** batches of this stream may be in flight together (order does not matter within the stream) */
  concurrent: boolean;
  /**
   * `send` takes payloads serialised on a read's worker thread (PayloadBytes) as well as objects: such a stream's
   * read on a worker thread hands over JSON bytes, any other stream's payload objects
   */
  sendsBytes?: boolean;
  /** once the stream's batches are answered: notices of the run (kept with the stream's counters), e.g. skips it could not name */
  notices?(ctx: HandlerContext): string[];
  /** after a complete read of the stream: ids acknowledged before but not seen now (managers: delete) */
  onCompleteRead?(ctx: HandlerContext, missingIds: string[]): Promise<string[]>;
}
