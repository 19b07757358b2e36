import type { WriteBackCounters } from '../../runs/run-vocabulary';
import { flowCountersLine } from '../../application/flow-descriptions';
import type { WriteBackPreview } from '../../engine';

const SEP = ' · ';

/** `write-back: attributed 120 · written 3 · unchanged 116 · rejected 1` */
export function writeBackLine(counters: WriteBackCounters): string {
  return flowCountersLine('write_back', counters);
}

/**
 * A dry run, one block per deal:
 *   deal 4711
 *     channel → Источник: Реклама / Яндекс Директ / Поиск
 */
export function writeBackPreviewLines(preview: WriteBackPreview): string[] {
  const lines = [`connection ${preview.connectionId}: write-back dry run (nothing is written)`];
  for (const deal of preview.deals) {
    lines.push(`deal ${deal.id}`);
    for (const v of deal.values) lines.push(`  ${v.value} → ${v.field}: ${v.text === '' ? '(empty)' : v.text}`);
  }
  const { attributed, unchanged } = preview.counters;
  lines.push(`would write ${preview.deals.length} deals${SEP}attributed ${attributed}${SEP}unchanged ${unchanged}`);
  return lines;
}
