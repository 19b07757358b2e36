import { SecretScrubber } from '../../application';
import type { CliContext } from '../cli-context';
import type { CliOutput } from './cli-output';

/**
 * `--json`: the admin API's answer for the same request, as one JSON document on stdout. Scrubbed like
 * every admin answer (RedactAnswersInterceptor), so no secret leaves here either.
 */
export function printJson(ctx: CliContext, out: CliOutput, value: unknown): void {
  out.line(JSON.stringify(ctx.app.get(SecretScrubber).scrub(value), null, 2));
}
