import type { LeadsPreview } from '../../engine';
import { flowCountersLine } from '../../application/flow-descriptions';

/**
 * A lead-delivery dry run, one block per lead:
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
