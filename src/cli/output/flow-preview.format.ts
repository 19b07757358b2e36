import type { OutboundFlowName } from '../../runs/outbound-flows';
import { leadsPreviewLines } from './leads.format';
import { managerTasksPreviewLines } from './manager-tasks.format';
import { writeBackPreviewLines } from './write-back.format';

/* eslint-disable @typescript-eslint/no-explicit-any -- each flow's dry run has its own shape */
const PREVIEW_LINES: Partial<Record<OutboundFlowName, (preview: any) => string[]>> = {
  write_back: writeBackPreviewLines,
  leads: leadsPreviewLines,
  manager_tasks: managerTasksPreviewLines,
};

/** A flow's dry run as text: in the flow's own words where the CLI has them, else its JSON (as the admin API answers). */
export function flowPreviewLines(flow: OutboundFlowName, preview: unknown): string[] {
  const lines = PREVIEW_LINES[flow];
  return lines ? lines(preview) : JSON.stringify(preview, null, 2).split('\n');
}
