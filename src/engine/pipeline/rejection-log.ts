import type { RejectedInput } from '../../connectors/connector-definition';
import { openRejectionKey } from '../../store/open-rejection-key';
import type { NewRejection } from '../../store/checkpoint-writer';

const EXCERPT_MAX = 200;

/** What a checkpoint changes in the open rejections besides adding its rejections. */
export interface OpenRejectionChanges {
  /** keys whose rows from earlier runs go: the service now holds the record, or this run rejected it anew */
  dropEarlier: string[];
}

/**
 * Rejected records of one stream, kept until the next checkpoint writes them; and the stream's open
 * rejections (loaded as it starts), to tell which of them this run settles.
 */
export class RejectionLog {
  private pending: NewRejection[] = [];
  /** keys of the stream's open rejections as it started, less those settled since */
  private open = new Set<string>();
  /** open keys rejected again by this run: never settled by it */
  private readonly restated = new Set<string>();
  /** keys for the next checkpoint's OpenRejectionChanges (settled by an unchanged record, or restated) */
  private dropEarlier: string[] = [];
  /** open keys of records deferred to the next run: a complete read leaves them open */
  private readonly deferredOpen = new Set<string>();

  constructor(
    private readonly runId: number,
    private readonly connectionId: string,
    private readonly stream: string,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  /** Our own checks (or the mapping) refused the record: one row per problem. */
  fromChecks(id: string, problems: { field: string; reason: string }[], ref: string | undefined, record: unknown, fingerprint: string | null): void {
    const excerpt = excerptOf(record);
    for (const p of problems) this.add(id, p.field, p.reason, ref ?? null, excerpt, 'check', fingerprint);
  }

  fromConnector(input: RejectedInput): void {
    this.add(input.id ?? '', input.field, input.reason, input.ref ?? null, input.excerpt?.slice(0, EXCERPT_MAX) ?? null, 'connector', null);
  }

  fromService(id: string, field: string, reason: string, payload: unknown, fingerprint: string): void {
    this.add(id, field, reason, null, excerptOf(payload), 'service', fingerprint);
  }

  /** Hands the pending rows to a checkpoint. */
  drain(): NewRejection[] {
    const rows = this.pending;
    this.pending = [];
    return rows;
  }

  /** The stream's open rejection keys, read as it starts. */
  startWith(open: Set<string>): void {
    this.open = open;
  }

  /** The service already holds this version of the record (fingerprint unchanged): as good as sent. */
  noteUnchanged(id: string): void {
    if (this.open.size && this.settle(id)) this.dropEarlier.push(`id:${id}`);
  }

  /** A record updated after the run's start, left for the next run. */
  noteDeferred(id: string): void {
    const key = `id:${id}`;
    if (this.open.has(key)) this.deferredOpen.add(key);
  }

  /** Open keys a complete read must leave open. */
  get deferredKeys(): string[] {
    return [...this.deferredOpen];
  }

  /** For a checkpoint: the changes noted since the last one, plus the open keys its acknowledged ids settle. */
  openChanges(acknowledged: readonly { externalId: string }[]): OpenRejectionChanges {
    const dropEarlier = this.dropEarlier;
    this.dropEarlier = [];
    if (this.open.size) for (const a of acknowledged) if (this.settle(a.externalId)) dropEarlier.push(`id:${a.externalId}`);
    return { dropEarlier };
  }

  /** true when the sent id settles an open rejection (once); a record this run rejected again stays open */
  private settle(id: string): boolean {
    const key = `id:${id}`;
    if (!this.open.has(key) || this.restated.has(key)) return false;
    this.open.delete(key);
    return true;
  }

  private add(externalId: string, field: string, reason: string, ref: string | null, excerpt: string | null, source: NewRejection['source'], fingerprint: string | null): void {
    const row: NewRejection = {
      run_id: this.runId,
      connection_id: this.connectionId,
      stream: this.stream,
      external_id: externalId.slice(0, 255),
      field: field.slice(0, 255),
      reason,
      ref: ref ? ref.slice(0, 255) : null,
      excerpt,
      source,
      fingerprint,
    };
    this.pending.push(row);
    if (!this.open.size) return;
    const key = openRejectionKey(row);
    if (this.open.has(key) && !this.restated.has(key)) {
      this.restated.add(key); // its problems now are this run's: older ones go with this row's checkpoint
      this.dropEarlier.push(key);
    }
  }
}

export function excerptOf(value: unknown): string | null {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : text.slice(0, EXCERPT_MAX);
  } catch {
    return null;
  }
}
