import { Injectable } from '@nestjs/common';
import { PreviewOptions, PreviewResult, SyncService } from '../../engine';

/** A sync's dry run: a few records per stream, their payloads and verdicts; nothing is sent, no cursor moves. */
@Injectable()
export class SyncPreviewService {
  constructor(private readonly sync: SyncService) {}

  preview(connectionId: string, options: PreviewOptions = {}): Promise<PreviewResult> {
    return this.sync.preview(connectionId, options);
  }
}
