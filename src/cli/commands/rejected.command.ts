import { OpenRejectionResponse, OpenRejectionsService, SecretScrubber } from '../../application';
import type { StreamName } from '../../connectors/canonical';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { rejectedLine } from '../output/run-summary.format';

export interface RejectedOptions {
  stream?: StreamName;
  limit: number;
  offset: number;
  /** the JSON of GET /api/connections/{id}/rejected, for scripts */
  json?: boolean;
}

/** The connection's open rejections: records rejected and not fixed yet, whatever run saw them last. */
export async function rejectedCommand(ctx: CliContext, out: CliOutput, connectionId: string, options: RejectedOptions): Promise<number> {
  const answer = await ctx.app.get(OpenRejectionsService).list(connectionId, options);
  const scrubber = ctx.app.get(SecretScrubber);
  if (options.json) {
    out.line(JSON.stringify(scrubber.scrub(answer), null, 2));
    return 0;
  }
  const { rejected, total } = answer;
  const of = options.stream ? ` in ${options.stream}` : '';
  if (total === 0) {
    out.line(`connection ${connectionId}: no open rejections${of}`);
    return 0;
  }
  out.line(`connection ${connectionId}: ${total} open rejection${total === 1 ? '' : 's'}${of} (rejected and not fixed yet)`);
  for (const r of rejected) out.line(scrubber.text(openRejectionLine(r)));
  const after = options.offset + rejected.length;
  if (after < total) out.line(`… ${total - after} more (use --limit and --offset)`);
  return 0;
}

/** `rejected deals D-4 (deals.csv row 5) created_at: "31.02.2026" is not a valid date · since 2026-11-24 18:20:01 UTC · last run 3` */
export function openRejectionLine(r: OpenRejectionResponse): string {
  const again = r.last_seen !== r.first_seen ? `, last ${utc(r.last_seen)}` : '';
  return `${rejectedLine(r)} · since ${utc(r.first_seen)}${again} (run ${r.run_id})`;
}

function utc(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
}
