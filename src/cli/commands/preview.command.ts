import { SecretScrubber, SyncPreviewService } from '../../application';
import type { StreamName } from '../../connectors/canonical';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { previewLines } from '../output/preview.format';

export interface PreviewCommandOptions {
  stream?: StreamName;
  limit: number;
}

/** Dry run: reads a few records and shows what would be sent, with the checks' verdicts. `--json`: as POST …/preview. */
export async function previewCommand(ctx: CliContext, out: CliOutput, connectionId: string, options: PreviewCommandOptions): Promise<number> {
  const result = await ctx.app.get(SyncPreviewService).preview(connectionId, { stream: options.stream, limit: options.limit });
  if (ctx.json) printJson(ctx, out, result);
  else for (const line of previewLines(ctx.app.get(SecretScrubber).scrub(result))) out.line(line);
  return result.streams.some((s) => s.error) ? 1 : 0;
}
