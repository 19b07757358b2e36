import type { CoreStream } from '../../src/connectors/canonical';
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
  return merged;
}

/** Streams that are defined, not disabled, and complete enough to read. */
export function enabledStreams(source: ResolvedSource): CoreStream[] {
  return CORE_STREAMS.filter((name) => {
    const stream = source.streams[name];
    return !!stream && stream.enabled !== false && !!stream.request?.path;
  });
}

export function streamDefinition(source: ResolvedSource, name: CoreStream): StreamDefinition {
  const stream = source.streams[name];
  if (!stream || stream.enabled === false) {
    throw new Error(`stream ${name} is not defined for this connection (preset ${source.preset ?? 'none'})`);
  }
  if (!stream.request?.path) throw new Error(`stream ${name}: request.path is missing`);
  if (!stream.mapping?.id) throw new Error(`stream ${name}: mapping.id is missing`);
  return stream;
}

function stripUndefined(value: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
