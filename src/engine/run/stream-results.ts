import type { Page } from '../../connectors/connector-definition';
import { STREAM_NEEDS, StreamName } from '../../connectors/canonical';
import { FailureReach, failureReach, isLastingError } from '../../connectors/lasting-failure';
import { errorText, RepeatedPageError, StreamSortError } from '../engine-errors';

/**
 * A failure of a stream's source (the connector's read, the CRM's stage list), told apart from the service's, the
 * store's and the engine's own, which stop the run. The message stays the connector's, `lasting` and `reach` too.
 */
export class StreamSourceError extends Error {
  readonly lasting: boolean;
  readonly reach: FailureReach;

  constructor(readonly stream: StreamName, source: unknown) {
    super(errorText(source), { cause: source });
    this.name = 'StreamSourceError';
    this.lasting = isLastingError(source);
    this.reach = failureReach(source);
  }
}

/** The connector's pages; a failure of its read is the stream's source's (the engine's own steps run in the caller). */
export async function* fromSource(stream: StreamName, read: () => AsyncIterable<Page>): AsyncIterable<Page> {
  try {
    yield* read();
  } catch (e) {
    throw e instanceof StreamSourceError ? e : new StreamSourceError(stream, e);
  }
}

/**
 * The stream's own failure, which fails that stream alone: its source failed for this stream only (a missing or empty
 * file, one endpoint's error or 403), or its pages broke the stream's rules (a page repeated, a sorted stream going
 * back). Anything else stops the run: the service (refused credentials, down after retries), the store, the abort, a
 * source failure that every stream would meet (credentials refused, a daily quota spent).
 */
export function isStreamsOwn(e: unknown): boolean {
  if (e instanceof StreamSourceError) return e.reach === 'stream';
  return e instanceof RepeatedPageError || e instanceof StreamSortError;
}

/**
 * What became of each stream of a run that goes on past a stream's own failure (the streams that do not need it are
 * synced, those that do are skipped), and the run's outcome: failed when any stream failed, with an error naming
 * each failure, then which streams were synced, skipped or, when the run stopped, not read.
 */
export class StreamResults {
  private readonly synced: StreamName[] = [];
  private readonly failures: { stream: StreamName; error: string; lasting: boolean }[] = [];
  /** skipped stream → the failed streams it needs */
  private readonly skipped = new Map<StreamName, StreamName[]>();

  constructor(private readonly streams: readonly StreamName[]) {}

  /** The streams failed or skipped in this run that `stream` needs (none: it runs). */
  missingFor(stream: StreamName): StreamName[] {
    return (STREAM_NEEDS[stream] ?? []).filter((need) => this.skipped.has(need) || this.failures.some((f) => f.stream === need));
  }

  done(stream: StreamName): void {
    this.synced.push(stream);
  }

  skip(stream: StreamName, missing: StreamName[]): void {
    this.skipped.set(stream, missing);
  }

  failed(stream: StreamName, error: string, e: unknown): void {
    this.failures.push({ stream, error, lasting: isLastingError(e) });
  }

  /** Every stream ran or was skipped: succeeded, or failed naming what failed (lasting when every failure is). */
  outcome(): { status: 'succeeded' | 'failed'; error: string | null; lasting?: boolean } {
    if (!this.failures.length) return { status: 'succeeded', error: null };
    const lasting = this.failures.every((f) => f.lasting) ? { lasting: true } : {};
    return { status: 'failed', error: this.text(null), ...lasting };
  }

  /** The run stopped at `stream` (a failure not the stream's own): its error, after the streams that failed before. */
  stopped(stream: StreamName, error: string): string {
    if (!this.failures.length) return error; // the run's first failure: said as it always was
    this.failures.push({ stream, error, lasting: false });
    return this.text(stream);
  }

  /** An interrupted run's message, with the streams that had failed before it stopped. */
  interrupted(message: string): string {
    return this.failures.length ? `${message}; before that: ${this.failures.map((f) => f.error).join('; ')}` : message;
  }

  private text(stoppedAt: StreamName | null): string {
    const errors = this.failures.map((f) => f.error);
    if (this.streams.length < 2) return errors.join('; ');
    const done = new Set<StreamName>([...this.synced, ...this.skipped.keys(), ...this.failures.map((f) => f.stream)]);
    const unread = this.streams.filter((s) => !done.has(s));
    const parts = [`synced ${list(this.synced)}`];
    for (const [stream, missing] of this.skipped) parts.push(`skipped ${stream} (it needs ${missing.join(', ')}, which failed)`);
    if (stoppedAt && unread.length) parts.push(`not read ${list(unread)}`);
    const how = stoppedAt ? `the run stopped at ${stoppedAt}` : `the run went on without ${this.failures.length === 1 ? 'it' : 'them'}`;
    return `${errors.join('; ')}; ${how}: ${parts.join('; ')}`;
  }
}

function list(streams: StreamName[]): string {
  return streams.length ? streams.join(', ') : 'none';
}
