import { MessageChannel } from 'worker_threads';
import type { CanonicalRecord } from '../../connectors/canonical';
import type { Page } from '../../connectors/connector-definition';
import { errorText } from '../engine-errors';
import { PayloadBytes } from '../pipeline/sending/payload-bytes';
import type { Mapped } from '../pipeline/record-pipeline';
import { MainMessage, ReadTask, THREW, WireChunk, WITHOUT_VISIT, WorkerMessage } from './offload-wire';
import { readPool } from './offload-pool';

/** A page read on a worker thread: its records mapped there already (same index as records). */
export interface OffloadedPage extends Page {
  mapped: Mapped[];
}

/** Chunks the worker may have sent ahead of the one being handled: bounds the read's lead, so memory stays flat. */
const CREDIT = 4;

export interface OffloadedRead {
  task: Omit<ReadTask, 'port'>;
  threads: number;
  logger: { log(m: string): void; warn(m: string): void; debug?(m: string): void; notice?(m: string): void };
  signal: AbortSignal;
}

/**
 * One stream read on a worker thread (read-worker.ts), as pages of mapped records. The worker sends a chunk only
 * against credit, given back as each page is taken here. A read that fails there fails here with the connector's
 * own message; a thread that dies fails it naming the thread (the stream fails; nothing past what was
 * acknowledged is recorded, and the next run reads the file again).
 */
export async function* readOffloaded(read: OffloadedRead): AsyncGenerator<OffloadedPage> {
  const { port1: port, port2: theirs } = new MessageChannel();
  const queue: WireChunk[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  let failure: Error | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (error: Error) => {
    failure ??= error;
    notify();
  };
  port.on('message', (message: WorkerMessage) => {
    if (message.kind === 'chunk') queue.push(message.chunk);
    else if (message.kind === 'end') finished = true;
    else if (message.kind === 'failed') failure ??= new Error(message.message);
    else return (read.logger[message.level] ?? read.logger.log).call(read.logger, message.message);
    notify();
  });
  // the worker's side closes after its last message: without its end, the thread stopped short
  port.on('close', () => finished || fail(new Error("the read's worker thread stopped before the end of the stream (its channel closed)")));
  const task = readPool(read.threads)
    .run({ ...read.task, port: theirs } satisfies ReadTask, { transferList: [theirs] })
    .catch((e: unknown) => fail(new Error(`the read's worker thread stopped before the end of the stream: ${errorText(e)}`)));
  const stop = () => port.postMessage({ stop: true } satisfies MainMessage);
  read.signal.addEventListener('abort', stop, { once: true });
  port.postMessage({ credit: CREDIT } satisfies MainMessage);
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk) {
        port.postMessage({ credit: 1 } satisfies MainMessage);
        yield pageOf(chunk);
        continue;
      }
      if (failure) throw failure;
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    read.signal.removeEventListener('abort', stop);
    if (!finished && !failure) stop();
    await task;
    port.close();
  }
}

/** The chunk as a page: light records ({ id, updated_at }) but the refused, whole; each record's Mapped. */
function pageOf(c: WireChunk): OffloadedPage {
  const n = c.ids.length;
  const body = c.body ? Buffer.from(c.body, 0, c.bodyLength) : null;
  const serialised = body ? countIn(c.offsets!, n) : 0;
  const records: CanonicalRecord[] = new Array(n);
  const mapped: Mapped[] = new Array(n);
  const refs: string[] = [];
  let ordinal = 0;
  for (let i = 0; i < n; i++) {
    const refused = c.refused?.[i];
    const flags = c.flags[i];
    const fingerprint = c.fingerprints?.[i] ?? null;
    if (refused) {
      records[i] = refused.record as CanonicalRecord;
      if (refused.ref !== undefined) refs[i] = refused.ref;
      mapped[i] = { payload: refused.payload, fingerprint, problems: refused.problems, threw: (flags & THREW) !== 0, withoutVisit: false };
      continue;
    }
    records[i] = (c.at ? { id: c.ids[i], updated_at: new Date(c.at[i]) } : { id: c.ids[i] }) as CanonicalRecord;
    const payload = body ? new PayloadBytes(body, serialised, ordinal++, c.offsets![i], c.lengths![i]) : c.payloads?.[i];
    mapped[i] = { payload, fingerprint, problems: null, threw: false, withoutVisit: (flags & WITHOUT_VISIT) !== 0 };
  }
  return {
    records,
    refs: c.refused ? refs : undefined,
    hashes: c.hashes as string[] | undefined ?? undefined,
    rejected: c.rejected,
    ...(c.skipped ? { skipped_fields: c.skipped } : {}),
    state: c.state,
    unchanged: c.unchanged,
    progress: c.progress,
    ...(c.deferredFuture ? { deferred_future: c.deferredFuture } : {}),
    mapped,
  };
}

function countIn(offsets: Int32Array, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) if (offsets[i] >= 0) count++;
  return count;
}
