import type { MessagePort } from 'worker_threads';
import type { StreamName } from '../../connectors/canonical';
import type { RejectedInput, SkippedField, SourceProgress } from '../../connectors/connector-definition';
import type { Problem } from '../pipeline/record-pipeline';

/**
 * What the main thread and a read on a worker thread (read-worker.ts) say to each other: plain data only
 * (structured clone), the serialised payloads in one transferred buffer per chunk.
 */

/** One stream's read, handed to the pool. */
export interface ReadTask {
  /** worker → main: WorkerMessage; main → worker: MainMessage */
  port: MessagePort;
  /** the module whose default export is the connector's definition (ConnectorDefinition.workerModule) */
  connectorModule: string;
  connectionId: string;
  /** the run the read belongs to: a thread keeps one connector session per connection and run (read-worker.ts) */
  runId: number;
  settings: object;
  stream: StreamName;
  /** the streams the run reads after this one (ReadContext.laterStreams); none: the run's last read */
  laterStreams: StreamName[];
  since: number | null;
  until: number;
  state: Record<string, unknown> | null;
  /** ReadContext.openRejections */
  openRejections?: string[];
  workDir?: string;
  mappingVersion: number;
  /** records per chunk: the run's batch size, so that a chunk nothing is dropped from is one request body as it is */
  batchSize: number;
  /** payloads travel as JSON bytes (the stream's handler sends bytes), else as objects */
  serialise: boolean;
  /** fault tests only: the worker thread exits after mapping this many records (TRACKER_SYNC_WORKER_EXIT_AFTER) */
  exitAfterRecords?: number;
}

export type MainMessage = { credit: number } | { stop: true };

export type WorkerMessage =
  | { kind: 'log'; level: 'log' | 'warn' | 'debug' | 'notice'; message: string }
  | { kind: 'chunk'; chunk: WireChunk }
  /** the read itself failed (the connector's error, as it said it); the thread lives on */
  | { kind: 'failed'; message: string }
  /** after the last chunk: the stream was read to its end (the task's own answer travels apart, unordered) */
  | { kind: 'end' };

/** WireChunk.flags bits, per record */
export const WITHOUT_VISIT = 1;
export const THREW = 2;

/**
 * Up to `batchSize` records of the stream, mapped, checked and fingerprinted, with what the connector's pages said
 * meanwhile. Packed for the copy between threads: per record an id, its updated_at and flags in typed arrays;
 * only a refused record travels whole (its rejection keeps an excerpt and its row).
 */
export interface WireChunk {
  ids: string[];
  /** updated_at in ms (NaN: none or not a date), when any record of the chunk has the field */
  at: Float64Array | null;
  /** the connector's row hashes (Page.hashes) */
  hashes: (string | undefined)[] | null;
  /** the payloads' fingerprints, when there is no row hash */
  fingerprints: (string | null)[] | null;
  flags: Uint8Array;
  /** by index: the refused records whole, their problems (the mapping's or the checks'), rows and payloads */
  refused: Record<number, { record: unknown; problems: Problem[]; ref?: string; payload?: unknown }> | null;
  /** payload objects (a stream that is not serialised), by index */
  payloads: unknown[] | null;
  /** serialised: `[p0,p1,…]` of the records with no problem, in order */
  body: ArrayBuffer | null;
  bodyLength: number;
  /** per record, the byte offset and length of its JSON in `body` (-1: not in it) */
  offsets: Int32Array | null;
  lengths: Int32Array | null;
  rejected: RejectedInput[];
  /** the pages' optional fields left out of their records (Page.skipped_fields) */
  skipped?: SkippedField[];
  state?: Record<string, unknown>;
  unchanged?: boolean;
  progress?: SourceProgress;
  /** the pages' records held back as dated in the future (Page.deferred_future) */
  deferredFuture?: number;
}
