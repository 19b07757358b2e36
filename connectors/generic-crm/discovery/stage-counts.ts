import { promises as fs, readFileSync } from 'fs';
import * as path from 'path';

/**
 * Deals of the connection's last complete read per stage as the CRM has it (before status_map), kept in the
 * connection's work folder for the status page and `check`.
 */
const FILE = 'deal-stages.json';

export interface StageCounts {
  at: string;
  deals: Record<string, number>;
}

export async function saveStageCounts(workDir: string | undefined, deals: Map<string, number>): Promise<void> {
  if (!workDir) return;
  // the connection's work folder under data_dir: its owner's only, as the daemon's other files
  await fs.mkdir(workDir, { recursive: true, mode: 0o700 });
  const file = path.join(workDir, FILE);
  const body: StageCounts = { at: new Date().toISOString(), deals: Object.fromEntries([...deals].sort(([a], [b]) => a.localeCompare(b))) };
  // written whole and renamed: a reader never sees half a file
  await fs.writeFile(`${file}.tmp`, JSON.stringify(body, null, 2), { mode: 0o600 });
  await fs.rename(`${file}.tmp`, file);
}

export function loadStageCounts(workDir: string | undefined): StageCounts | null {
  if (!workDir) return null;
  try {
    const text = readFileSync(path.join(workDir, FILE), 'utf8');
    const parsed = JSON.parse(text) as StageCounts;
    return typeof parsed?.at === 'string' && typeof parsed.deals === 'object' ? parsed : null;
  } catch {
    return null;
  }
}
