import type { CanonicalRecord } from '../../connectors/canonical';
import { errorText } from '../engine-errors';
import { fingerprinter, Fingerprinter } from './fingerprint';
import { MappingError } from '../mappings/mapping-error';
import type { StreamMapping } from '../mappings/stream-mapping';

/** A record read and taken in: its id, and its fingerprint when the connector hashed its row. */
export interface Candidate {
  externalId: string;
  /** `s<v>:` from the connector's row hash (Page.hashes), known before mapping; null until the payload is built */
  fingerprint: string | null;
  record: CanonicalRecord;
  ref: string | undefined;
  /** mapped, checked and fingerprinted already, on the read's worker thread (offload/) */
  mapped?: Mapped;
}

/** A record mapped on a worker thread: what `settle` would otherwise make of it here. */
export interface Mapped {
  /** the payload (an object, or its JSON bytes: PayloadBytes); undefined when the mapping threw */
  payload: unknown;
  /** the payload's fingerprint (when the connector gave no row hash) */
  fingerprint: string | null;
  /** the mapping's (threw) or the checks' problems */
  problems: Problem[] | null;
  threw: boolean;
  withoutVisit: boolean;
}

export interface Problem {
  field: string;
  reason: string;
}

/** Where the pipeline's verdicts go: exactly one call per candidate, in the candidates' order. */
export interface RecordVerdicts<P> {
  /** passed every step: to be sent. `stored`: the fingerprint the store holds for the id, if any */
  accept(candidate: Candidate, payload: P, fingerprint: string, stored: string | undefined): void;
  /** the store holds this very version: nothing to send */
  unchanged(candidate: Candidate): void;
  /** refused by the mapping (no payload) or by the checks; `fingerprint` when one could be computed */
  reject(candidate: Candidate, problems: Problem[], fingerprint: string | null, payload: P | undefined): void;
}

/**
 * Map, check, fingerprint: what a record goes through between the connector and a batch, in ONE order for
 * every connector (src/engine/README.md, "The record pipeline"):
 *
 *   intake → fingerprint-if-cheap → (per chunk) lookup → drop-if-unchanged → map → check → fingerprint-if-payload
 *   → drop-if-unchanged → accept
 *
 * A connector that hashes its rows gets its fingerprint at intake, so an unchanged record is dropped before it
 * is mapped at all; any other record is mapped and checked first, and its payload's hash is compared instead.
 * The lookup (one IN query per chunk) is the caller's; everything here is pure and synchronous, and it allocates
 * nothing per record beyond the candidate and the payload (verdicts are calls, not objects).
 */
export class RecordPipeline<P = unknown> {
  private readonly fingerprints: Fingerprinter;

  constructor(
    private readonly handler: StreamMapping<CanonicalRecord, P>,
    mappingVersion: number,
  ) {
    this.fingerprints = fingerprinter(mappingVersion);
  }

  /** fingerprint-if-cheap: the record as a candidate, fingerprinted from the connector's row hash when there is one */
  candidate(record: CanonicalRecord, externalId: string, ref: string | undefined, hash: string | undefined): Candidate {
    return { externalId, fingerprint: hash ? this.fingerprints.source(hash) : null, record, ref };
  }

  /** intake: a record without an id is rejected (null); any other goes on as a candidate */
  intake(record: CanonicalRecord, externalId: string, ref: string | undefined, hash: string | undefined, out: RecordVerdicts<P>, mapped?: Mapped): Candidate | null {
    const candidate = this.candidate(record, externalId, ref, hash);
    if (mapped) candidate.mapped = mapped;
    if (externalId !== '') return candidate;
    out.reject(candidate, [{ field: 'id', reason: 'is empty' }], null, undefined);
    return null;
  }

  /**
   * The steps after the lookup, for one chunk. `stored`: id → fingerprint the store holds (the lookup's answer).
   * With `dropUnchanged` false (full and since runs, retries, preview) nothing is dropped as unchanged.
   */
  settle(candidates: readonly Candidate[], stored: ReadonlyMap<string, string>, dropUnchanged: boolean, out: RecordVerdicts<P>): void {
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i];
      const held = stored.get(candidate.externalId);
      if (dropUnchanged && candidate.fingerprint !== null && held === candidate.fingerprint) {
        out.unchanged(candidate);
        continue;
      }
      if (candidate.mapped) {
        this.settleMapped(candidate, candidate.mapped, held, dropUnchanged, out);
        continue;
      }
      let payload: P;
      try {
        payload = this.handler.toPayload(candidate.record);
      } catch (e) {
        out.reject(candidate, [mappingProblem(e)], candidate.fingerprint, undefined);
        continue;
      }
      const problems = this.handler.check(payload);
      const fingerprint = candidate.fingerprint ?? this.fingerprints.payload(payload);
      if (problems.length) {
        out.reject(candidate, problems, fingerprint, payload);
        continue;
      }
      if (dropUnchanged && held === fingerprint) {
        out.unchanged(candidate);
        continue;
      }
      out.accept(candidate, payload, fingerprint, held);
    }
  }

  /** The same steps after map → check → fingerprint, for a record mapped on the read's worker thread. */
  private settleMapped(candidate: Candidate, mapped: Mapped, held: string | undefined, dropUnchanged: boolean, out: RecordVerdicts<P>): void {
    if (mapped.threw) return out.reject(candidate, mapped.problems!, candidate.fingerprint, undefined);
    const fingerprint = candidate.fingerprint ?? mapped.fingerprint!;
    if (mapped.problems) return out.reject(candidate, mapped.problems, fingerprint, mapped.payload as P);
    if (dropUnchanged && held === fingerprint) return out.unchanged(candidate);
    out.accept(candidate, mapped.payload as P, fingerprint, held);
  }
}

/** The same id twice in one chunk (a file with duplicate rows): only the last version goes on, in its read position. */
export function lastVersions(candidates: Candidate[]): Candidate[] {
  if (candidates.length < 2 || new Set(candidates.map((c) => c.externalId)).size === candidates.length) return candidates;
  const byId = new Map<string, Candidate>();
  for (const c of candidates) {
    byId.delete(c.externalId);
    byId.set(c.externalId, c);
  }
  return [...byId.values()];
}

/** A mapping that threw: the field it names (MappingError), else the whole record. */
function mappingProblem(e: unknown): Problem {
  return e instanceof MappingError ? { field: e.field, reason: e.reason } : { field: 'record', reason: errorText(e) };
}
