import type { StreamName } from '../../connectors/canonical';
import type { SourceProgress } from '../../connectors/connector-definition';
import type { TrackerClient } from '../../tracker/tracker-client';
import { ServiceCounters, StreamCounters } from '../engine-types';
import { OpenRejectionStore } from '../../store/repositories/open-rejection.store';
import { RecordStateStore } from '../../store/repositories/record-state.store';
import { SerialWriter } from '../../store/serial-writer';

/** What every stream of one run shares. */
export interface RunScope {
  runId: number;
  connectionId: string;
  writer: SerialWriter;
  recordStates: RecordStateStore;
  openRejections: OpenRejectionStore;
  tracker: TrackerClient;
  logger: { log(m: string): void; warn(m: string): void; error(m: string): void; debug(m: string): void };
  /** aborted on shutdown: stop reading, let batches in flight finish */
  signal: AbortSignal;
  streams: Partial<Record<StreamName, StreamCounters>>;
  counters: ServiceCounters;
  /** the connection has unresolved rejections: acknowledged ids resolve them */
  hasUnresolvedRejections: boolean;
  idleCheckpointMs: number;
  /** managers gone from the source are deleted from the service */
  deleteMissingManagers: boolean;
  /** `source`: the last page's position in the source (Page.progress), kept for the stream's later events */
  progress(stream: StreamName, force?: boolean, source?: SourceProgress): void;
}

export function zeroStreamCounters(): StreamCounters {
  return { read: 0, unchanged: 0, sent: 0, rejected: 0, sent_without_visit: 0 };
}

export function snapshotStreams(streams: RunScope['streams']): RunScope['streams'] {
  return JSON.parse(JSON.stringify(streams));
}
