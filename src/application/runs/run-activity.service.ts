import { Injectable } from '@nestjs/common';
import { ProgressEvent, SyncService } from '../../engine';

/** The runs going in this process, for a face that follows them: their progress events, and stopping them. */
@Injectable()
export class RunActivityService {
  constructor(private readonly sync: SyncService) {}

  /** Calls `listener` with each progress event (a dry run's have run 0); returns how to stop listening. */
  onProgress(listener: (event: ProgressEvent) => void): () => void {
    this.sync.events.on('progress', listener);
    return () => this.sync.events.off('progress', listener);
  }

  /** Stops reading, lets batches in flight finish and checkpoint (at most `timeoutMs`); runs end interrupted. */
  stopRuns(timeoutMs: number): Promise<void> {
    return this.sync.shutdown(timeoutMs);
  }
}
