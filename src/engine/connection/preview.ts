import { STREAM_ORDER } from '../../connectors/canonical';
import type { ConnectorDefinition, ConnectorSecrets, Page } from '../../connectors/connector-definition';
import { errorText } from '../engine-errors';
import { PreviewOptions, PreviewRecord, PreviewResult, PreviewStream } from '../engine-types';
import { Candidate, Problem, RecordPipeline } from '../pipeline/record-pipeline';
import { RecordStateStore } from '../../store/repositories/record-state.store';
import { mappingVersionOf, MappingVersions, streamHandler } from '../pipeline/sending';

export interface PreviewDeps {
  connectionId: string;
  definition: ConnectorDefinition;
  settings: object;
  recordStates: RecordStateStore;
  logger: { log(m: string): void; warn(m: string): void };
  workDir?: string;
  secrets?: ConnectorSecrets;
  /** what the connector's `open` returned for this dry run (ReadContext.session) */
  session?: unknown;
  /** EngineOptions.mappingVersions: the fingerprints must be those a run would compute */
  mappingVersions?: MappingVersions;
}

/** A dry run: a few records per stream, their payloads and the checks' verdicts. Nothing is sent or stored. */
export async function previewConnection(deps: PreviewDeps, options: PreviewOptions): Promise<PreviewResult> {
  const limit = Math.max(1, options.limit ?? 5);
  const offered = deps.definition.streams(deps.settings);
  const specs = STREAM_ORDER.map((name) => offered.find((s) => s.name === name))
    .filter((s): s is NonNullable<typeof s> => !!s)
    .filter((s) => !options.stream || s.name === options.stream);
  const streams: PreviewStream[] = [];
  for (const spec of specs) streams.push(await previewStream(deps, spec.name, limit));
  return { connectionId: deps.connectionId, streams };
}

async function previewStream(deps: PreviewDeps, stream: PreviewStream['stream'], limit: number): Promise<PreviewStream> {
  const result: PreviewStream = { stream, records: [], rejected: [] };
  const pipeline = new RecordPipeline(streamHandler(stream), mappingVersionOf(stream, deps.mappingVersions));
  const candidates: Candidate[] = [];
  const abort = new AbortController();
  try {
    const pages: AsyncIterable<Page> = deps.definition.read(stream, { since: null, until: new Date() }, {
      connectionId: deps.connectionId,
      settings: deps.settings,
      logger: deps.logger,
      signal: abort.signal,
      state: null,
      workDir: deps.workDir,
      secrets: deps.secrets,
      limit,
      session: deps.session,
    });
    for await (const page of pages) {
      result.rejected.push(...(page.rejected ?? []).slice(0, limit - result.rejected.length));
      if (page.skipped_fields?.length) (result.skipped_fields ??= []).push(...page.skipped_fields);
      page.records.slice(0, limit - candidates.length).forEach((record, i) => {
        // every record is shown (an empty id too): the run's steps from fingerprint-if-cheap on
        candidates.push(pipeline.candidate(record, String(record.id), page.refs?.[i], page.hashes?.[i]));
      });
      if (candidates.length >= limit) break;
    }
  } catch (e) {
    result.error = errorText(e);
  } finally {
    abort.abort();
  }
  const ids = candidates.map((c) => c.externalId);
  const stored = ids.length ? await deps.recordStates.fingerprints(deps.connectionId, stream, ids) : new Map<string, string>();
  // the run's steps after the lookup, with nothing dropped: every record gets its payload and the checks' verdict
  pipeline.settle(candidates, stored, false, {
    accept: (c, payload, fingerprint, held) => result.records.push(entry(c, payload, [], held === fingerprint)),
    unchanged: () => undefined, // never called: nothing is dropped
    reject: (c, problems, fingerprint, payload) =>
      result.records.push(entry(c, payload ?? null, problems, fingerprint !== null && stored.get(c.externalId) === fingerprint)),
  });
  return result;
}

function entry(c: Candidate, payload: unknown, problems: Problem[], unchanged: boolean): PreviewRecord {
  return { record: c.record, ref: c.ref, payload, problems: problems.map((p) => ({ field: p.field, reason: p.reason })), unchanged };
}
