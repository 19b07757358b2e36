import { SecretScrubber } from '../../admin';
import type { StreamName } from '../../connectors/canonical';
import { SyncService } from '../../engine';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { previewLines } from '../output/preview.format';

export interface PreviewCommandOptions {
  stream?: StreamName;
  limit: number;
}

/** Dry run: reads a few records and shows what would be sent, with the checks' verdicts. */
export async function previewCommand(ctx: CliContext, out: CliOutput, connectionId: string, options: PreviewCommandOptions): Promise<number> {
  const result = await ctx.app.get(SyncService).preview(connectionId, { stream: options.stream, limit: options.limit });
  const scrubber = ctx.app.get(SecretScrubber);
  for (const line of previewLines(scrubber.scrub(result))) out.line(line);
  return result.streams.some((s) => s.error) ? 1 : 0;
}
