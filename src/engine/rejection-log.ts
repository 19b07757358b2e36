import type { RejectedInput } from '../connectors/connector-definition';
import type { NewRejection } from './checkpoint';

const EXCERPT_MAX = 200;

/** Rejected records of one stream, kept until the next checkpoint writes them. */
export class RejectionLog {
  private pending: NewRejection[] = [];

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

  private add(externalId: string, field: string, reason: string, ref: string | null, excerpt: string | null, source: NewRejection['source'], fingerprint: string | null): void {
    this.pending.push({
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
    });
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
