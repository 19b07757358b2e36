import { STREAM_ORDER } from '../connectors/canonical';
import type { ConnectorDefinition, Page } from '../connectors/connector-definition';
import { errorText } from './engine-errors';
import { PreviewOptions, PreviewRecord, PreviewResult, PreviewStream } from './engine-types';
import { fingerprinter } from './fingerprint';
import { MappingError } from './mapping/mapping-error';
import { RecordStateStore } from '../store/repositories/record-state.store';
import { mappingVersionOf, MappingVersions, streamHandler } from './stream-handlers';

export interface PreviewDeps {
  connectionId: string;
  definition: ConnectorDefinition;
  settings: object;
  recordStates: RecordStateStore;
  logger: { log(m: string): void; warn(m: string): void };
  workDir?: string;
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
  const handler = streamHandler(stream);
  const fingerprint = fingerprinter(mappingVersionOf(stream, deps.mappingVersions));
  const fingerprints: string[] = [];
  const abort = new AbortController();
  try {
    const pages: AsyncIterable<Page> = deps.definition.read(stream, { since: null, until: new Date() }, {
      connectionId: deps.connectionId,
      settings: deps.settings,
      logger: deps.logger,
      signal: abort.signal,
      state: null,
      workDir: deps.workDir,
      limit,
    });
    for await (const page of pages) {
      result.rejected.push(...(page.rejected ?? []).slice(0, limit - result.rejected.length));
      page.records.slice(0, limit - result.records.length).forEach((record, i) => {
        const entry: PreviewRecord = { record, ref: page.refs?.[i], payload: null, problems: [], unchanged: false };
        try {
          entry.payload = handler.toPayload(record);
          entry.problems = handler.check(entry.payload).map((p) => ({ field: p.field, reason: p.reason }));
        } catch (e) {
          entry.problems = [{ field: e instanceof MappingError ? e.field : 'record', reason: e instanceof MappingError ? e.reason : errorText(e) }];
        }
        const hash = page.hashes?.[i];
        fingerprints.push(hash ? fingerprint.source(hash) : entry.payload ? fingerprint.payload(entry.payload) : '');
        result.records.push(entry);
      });
      if (result.records.length >= limit) break;
    }
  } catch (e) {
    result.error = errorText(e);
  } finally {
    abort.abort();
  }
  const ids = result.records.map((r) => String(r.record.id));
  const known = ids.length ? await deps.recordStates.fingerprints(deps.connectionId, stream, ids) : new Map();
  result.records.forEach((r, i) => (r.unchanged = !!fingerprints[i] && known.get(ids[i]) === fingerprints[i]));
  return result;
}
