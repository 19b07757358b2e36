import { RunTriggerService, SecretScrubber } from '../../application';
import { SyncService } from '../../engine';
import type { LeadsPreview } from '../../engine/outbound/flows/leads/leads.flow';
import { flowCountersLine } from '../../runs/outbound-flows';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';
import { followRun } from './follow-run';

export interface DeliverLeadsCommandOptions {
  dryRun?: boolean;
}

/**
 * A lead-delivery pass in the foreground (an outbound run of flow leads, then its counters), or with `--dry-run`
 * each proxy lead and the deal or note it would make: nothing is created or stored.
 */
export async function deliverLeadsCommand(ctx: CliContext, out: CliOutput, connectionId: string, options: DeliverLeadsCommandOptions): Promise<number> {
  const sync = ctx.app.get(SyncService);
  if (options.dryRun) {
    const preview = (await sync.outboundPreview(connectionId, 'leads')) as LeadsPreview;
    if (ctx.json) printJson(ctx, out, preview);
    else for (const line of leadsPreviewLines(ctx.app.get(SecretScrubber).scrub(preview))) out.line(line);
    return 0;
  }
  return followRun(
    ctx,
    out,
    connectionId,
    () => ctx.app.get(RunTriggerService).start(connectionId, 'cli', { kind: 'outbound', flow: 'leads' }),
    (runId) => `connection ${connectionId}: lead-delivery run ${runId} started`,
  );
}

/**
 * A dry run, one block per lead:
 *   proxy lead 17 «Заявка с сайта» → new deal in Продажи / Первичный контакт (responsible Анна), contact 55
 *     ID заявки: 17
 *   proxy lead 18 «Звонок» → note on deal 901 (contact 55)
 */
export function leadsPreviewLines(preview: LeadsPreview): string[] {
  const lines = [`connection ${preview.connectionId}: lead-delivery dry run (nothing is created)`];
  for (const lead of preview.leads) {
    const head = `proxy lead ${lead.lead} «${lead.title}»`;
    if (lead.action === 'already_delivered') lines.push(`${head} → already delivered (deal ${lead.deal.id ?? '?'})`);
    else if (lead.action === 'note') {
      lines.push(`${head} → note on deal ${lead.deal.id} (${lead.contact})`);
      for (const text of (lead.note ?? '').split('\n')) lines.push(`    ${text}`);
    } else {
      const { pipeline, stage, responsible, fields } = lead.deal;
      lines.push(`${head} → new deal «${lead.deal.title}» in ${pipeline} / ${stage}${responsible ? ` (responsible ${responsible})` : ''}, ${lead.contact}`);
      for (const [field, value] of Object.entries(fields ?? {})) lines.push(`    ${field}: ${value === '' ? '(empty)' : value}`);
    }
  }
  lines.push(flowCountersLine('leads', preview.counters));
  return lines;
}
