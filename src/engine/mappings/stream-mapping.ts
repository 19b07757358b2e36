import type { CanonicalRecord, StreamName } from '../../connectors/canonical';
import type { PayloadProblem } from '../../tracker/payload-checks';

/**
 * What one stream's records become (one per stream, in mappings/<stream>.ts): the mapping, its version and its
 * checks. How the payloads reach the service is the stream's handler's (pipeline/sending/<stream>.ts).
 */
export interface StreamMapping<R extends CanonicalRecord = any, P = any> {
  stream: StreamName;
  /**
   * the stream's mapping version (a constant beside its mapping): part of every fingerprint and of the stored
   * stream state, so bumping it sends every record of the stream again once (see README: change the mapping → bump it)
   */
  mappingVersion: number;
  toPayload(record: R): P;
  check(payload: P): PayloadProblem[];
  /** deals: the payload carries no visit */
  withoutVisit?(payload: P): boolean;
}

/** Per stream, mapping versions that replace the mappings' own (EngineOptions.mappingVersions). */
export type MappingVersions = Partial<Record<StreamName, number>>;
