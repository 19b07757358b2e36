import { Injectable } from '@nestjs/common';
import type { SourceProgress } from '../../connectors/connector-definition';
import { EngineSettings } from '../engine-settings';
import { ProgressEvent, RunRefused, RunSummary } from '../engine-types';
import { RunEvents } from './run-events';
import type { RunScope } from '../pipeline/run-scope';

/** SyncService.events: 'progress' (ProgressEvent) while runs go, 'finished' (RunSummary) as each ends. */
@Injectable()
export class RunProgress {
  readonly events = new RunEvents();

  constructor(private readonly settings: EngineSettings) {}

  /** A run's RunScope.progress: per stream, at most one event per progressIntervalMs unless forced (stream end). */
  reporter(connectionId: string, runId: number, streams: RunScope['streams']): RunScope['progress'] {
    const lastAt = new Map<string, number>();
    const sources = new Map<string, SourceProgress>();
    return (stream, force = false, source) => {
      if (source) sources.set(stream, source);
      const now = Date.now();
      if (!force && now - (lastAt.get(stream) ?? 0) < this.settings.progressIntervalMs) return;
      lastAt.set(stream, now);
      const c = streams[stream];
      if (!c) return;
      const event: ProgressEvent = { connectionId, runId, stream, read: c.read, sent: c.sent, unchanged: c.unchanged, rejected: c.rejected };
      const position = sources.get(stream);
      if (position) event.source = position;
      this.events.emit('progress', event);
    };
  }

  /** at most one event per stream this often (the last of a stream always goes) */
  get intervalMs(): number {
    return this.settings.progressIntervalMs;
  }

  /** A progress event made elsewhere (an outbound flow's pass). */
  emit(event: ProgressEvent): void {
    this.events.emit('progress', event);
  }

  finished(summary: RunSummary): void {
    this.events.emit('finished', summary);
  }

  refused(event: RunRefused): void {
    this.events.emit('refused', event);
  }
}
