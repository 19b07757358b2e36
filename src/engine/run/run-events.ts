import { EventEmitter } from 'events';
import type { ProgressEvent, RunRefused, RunSummary } from '../engine-types';

/** The engine's run events, by name, with what each carries. */
export interface RunEventMap {
  /** a stream's counters while a run goes (throttled per stream; forced at a stream's end) */
  progress: [event: ProgressEvent];
  /** a run ended (any status), with its summary */
  finished: [summary: RunSummary];
  /** a run could not start: the store refused it (no run row, no summary) */
  refused: [event: RunRefused];
}
export type RunEventName = keyof RunEventMap;

/** SyncService.events: typed, so a listener of 'finished' gets a RunSummary and a misspelt event does not compile. */
export class RunEvents extends EventEmitter<RunEventMap> {
  constructor() {
    super();
    this.setMaxListeners(50);
  }
}
