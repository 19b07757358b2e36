import { CrmActionRefusedError, CrmActions } from '../../../../connectors/crm-actions';
import { UnknownOutcomeError } from '../../../../connectors/lead-delivery';
import { CreateScope, lookupSettled, sendOnce } from '../../create-once';

/** One deal's task: what the CRM is asked to make. */
export interface TaskWrite {
  deal: string;
  /** the deal's day of creation (YYYY-MM-DD) */
  created: string;
  /**
   * the deal's responsible manager as last synced (the CRM id its order carries as `manager_id`), when it has one:
   * the dry run names it; the task itself goes to the manager the CRM names when it is made (deal_owner)
   */
  manager?: string;
}

export interface TaskVariables {
  deal: string;
  title: string;
  text: string;
  responsible?: string;
  due: string;
  due_ms: number;
  due_s: number;
  due_date: string;
}

/**
 * The deal's task, made once ever. It is looked up first (find_tasks: every page of the deal's tasks, ours being
 * the one with our text): a pass that crashed after the CRM took the create, before the fingerprint was stored,
 * finds it there. A create whose outcome is unknown (a timeout, a 5xx) is looked up again, after `settleMs`, before
 * it is sent again.
 * Returns the task's id and whether this pass made it.
 */
export async function taskOnce(actions: CrmActions, vars: TaskVariables, scope: CreateScope, settleMs: number): Promise<{ id: string; made: boolean }> {
  const found = await findTask(actions, vars);
  if (found) {
    scope.logger.log(`deal ${vars.deal}: its task is in the CRM already (task ${found}): not created again`);
    return { id: found, made: false };
  }
  if (actions.has('deal_owner')) {
    const [owner] = asList(await actions.run('deal_owner', { deal: vars.deal }));
    if (owner !== undefined && owner !== null && String(owner).trim() !== '') vars.responsible = String(owner).trim();
  }
  const create = async () => {
    const id = text(await actions.run('create_task', { ...vars }));
    if (!id) throw new UnknownOutcomeError(`the CRM answered the task create without an id (create_task.answer)`);
    return id;
  };
  // the deal's tasks are listed from the deal, not from a search index: no look-up lag, only the settle time
  const lookUp = async (sentAt: number, outcomeAt: number) => {
    await lookupSettled(scope, 'a task', sentAt, outcomeAt, { lagMs: 0, settleMs });
    return findTask(actions, vars);
  };
  return { id: await sendOnce(scope, `deal ${vars.deal}: the task create`, create, lookUp), made: true };
}

/**
 * The id of the deal's task with our text, or null: every page of find_tasks; tasks it lists by id only are read
 * with read_tasks when there is one (HubSpot's associations list ids), else a bare id is a match the CRM made itself.
 */
async function findTask(actions: CrmActions, vars: TaskVariables): Promise<string | null> {
  let tasks = asList(await actions.run('find_tasks', { ...vars })).map(toTask).filter((t) => t.id !== '');
  const unread = tasks.filter((t) => t.text === undefined).map((t) => t.id);
  if (unread.length && actions.has('read_tasks')) {
    const read = asList(await actions.run('read_tasks', { ...vars, ids: unread })).map(toTask);
    // a task the read does not answer for (deleted meanwhile) is no match
    tasks = tasks.map((t) => (t.text === undefined ? { id: t.id, text: read.find((r) => r.id === t.id)?.text ?? '' } : t));
  }
  return tasks.find((t) => t.text === undefined || t.text === vars.text.trim())?.id ?? null;
}

/** A find_tasks / read_tasks entry: { id, text } or a bare id (text unknown). */
function toTask(entry: unknown): { id: string; text?: string } {
  if (typeof entry !== 'object' || entry === null) return { id: text(entry) };
  const task = entry as { id?: unknown; text?: unknown };
  return { id: text(task.id), text: text(task.text) };
}

export function isRefusal(error: unknown): error is CrmActionRefusedError {
  return error instanceof CrmActionRefusedError;
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).trim();
}
