import type { CoreStream } from 'tracker-sync/connector';
import { deepMerge } from './definition/merge';
import { loadPreset } from './definition/presets';
import { StreamDefinition } from './definition/stream-definition';
import { GenericCrmSettings } from './settings';

/** The source as one run sees it: _common defaults, then the preset, then the user's settings. */
export interface ResolvedSource extends GenericCrmSettings {
  visit_field: string;
  timezone: string;
  streams: Partial<Record<CoreStream, StreamDefinition>>;
}

export const CORE_STREAMS: readonly CoreStream[] = ['managers', 'clients', 'deals'];

export function resolveSource(settings: GenericCrmSettings): ResolvedSource {
  const merged = deepMerge(loadPreset(settings.preset) as Partial<ResolvedSource>, stripUndefined(settings)) as ResolvedSource;
  merged.visit_field ??= 'tracker';
  merged.timezone ??= 'UTC';
  merged.streams ??= {};
  if (merged.base_url_rewrite && typeof merged.base_url === 'string') {
    const { pattern, replacement } = merged.base_url_rewrite;
    merged.base_url = merged.base_url.trim().replace(new RegExp(pattern), replacement);
  }
  return merged;
}

/** Streams that are defined, not disabled, and complete enough to read (a `from` stream: its source stream is). */
export function enabledStreams(source: ResolvedSource): CoreStream[] {
  const fetchable = (name: CoreStream) => {
    const stream = source.streams[name];
    return !!stream && stream.enabled !== false && !stream.from && !!stream.request?.path;
  };
  return CORE_STREAMS.filter((name) => {
    const stream = source.streams[name];
    if (!stream || stream.enabled === false) return false;
    return stream.from ? fetchable(stream.from) : fetchable(name);
  });
}

/** The stream whose pages a stream reads: its own, or the one named in `from`. */
export function pagesStreamOf(source: ResolvedSource, name: CoreStream): CoreStream {
  return source.streams[name]?.from ?? name;
}

export function streamDefinition(source: ResolvedSource, name: CoreStream): StreamDefinition {
  const stream = source.streams[name];
  if (!stream || stream.enabled === false) {
    throw new Error(`stream ${name} is not defined for this connection (preset ${source.preset ?? 'none'})`);
  }
  if (stream.from) checkFrom(source, name, stream.from);
  else if (!stream.request?.path) throw new Error(`stream ${name}: request.path is missing`);
  if (!stream.mapping?.id) throw new Error(`stream ${name}: mapping.id is missing`);
  return stream;
}

/** Messages without the stream's name: the read's errors already start with it. */
function checkFrom(source: ResolvedSource, name: CoreStream, from: CoreStream): void {
  const other = source.streams[from];
  if (from === name) throw new Error(`from names the stream itself`);
  if (!other || other.enabled === false) throw new Error(`from ${from}, but stream ${from} is not defined`);
  if (other.from) throw new Error(`from ${from}, which itself takes its records from ${other.from}; name ${other.from} instead`);
  if (!other.request?.path) throw new Error(`from ${from}, but stream ${from} has no request.path`);
}

function stripUndefined(value: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
