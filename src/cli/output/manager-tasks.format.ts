import type { ManagerTasksPreview, TaskManager } from '../../engine';
import { flowCountersLine } from '../../application/flow-descriptions';

/**
 * A manager-tasks dry run, one line per deal and its task's text below:
 *   deal 4711 (created 2026-11-20, no visit) → task for its responsible manager 501 (Анна Петрова): «How did the client find us?»
 *     Deal 4711: no ad source. Ask the client how they found us.
 * The manager is the deal's as last synced (its CRM id, its name when the service has the manager); the task goes
 * to the one the CRM names when it is made (the preset's deal_owner action, a CRM call the dry run does not make).
 * Deals whose task was made earlier are counted (already_created), not listed.
 */
export function managerTasksPreviewLines(preview: ManagerTasksPreview): string[] {
  const lines = [`connection ${preview.connectionId}: manager-tasks dry run (nothing is created)`];
  for (const task of preview.tasks) {
    lines.push(`deal ${task.deal} (created ${task.created}, no visit) → task for its responsible manager${managerWords(task.manager)}: «${task.title}»`);
    for (const text of task.text.split('\n')) lines.push(`    ${text}`);
  }
  const made = preview.counters.already_created ?? 0;
  if (made) lines.push(`${made} more deals without a visit have their task already (made earlier): nothing sent`);
  lines.push(flowCountersLine('manager_tasks', preview.counters));
  return lines;
}

/** ` 501 (Анна Петрова)`, ` 501` (a manager the service does not have), or nothing (the deal synced without one). */
function managerWords(manager: TaskManager | null | undefined): string {
  if (!manager) return '';
  return manager.name ? ` ${manager.id} (${manager.name})` : ` ${manager.id}`;
}
