import { writeFileSync } from 'fs';

export interface DealsCsv {
  path: string;
  ids: string[];
  /** the largest updated_at of the file, as the store writes cursors (ISO-8601 UTC) */
  maxUpdatedAt: string;
}

const START = Date.parse('2025-01-01T00:00:00Z');

/**
 * A spreadsheet export of `count` deals, one a minute from 2025-01-01, each with its own updated_at
 * (the column makes the spreadsheet connector incremental, so the cursor moves with the checkpoints).
 * No visit ids: the service stores such orders at once (a visit it does not know would be held back).
 */
export function writeDealsCsv(path: string, count: number): DealsCsv {
  const ids: string[] = [];
  const lines = ['id,title,status,created_at,updated_at,price'];
  let last = '';
  for (let i = 0; i < count; i++) {
    const id = `D${String(i).padStart(6, '0')}`;
    last = new Date(START + i * 60_000).toISOString();
    ids.push(id);
    lines.push(`${id},Deal ${i},0,${last},${last},${100 + (i % 50)}`);
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, ids, maxUpdatedAt: last };
}
