import type { ConnectorDefinition, WriteContext, WriteOutcome } from '../../../../connectors/connector-definition';
import type { CrmActions } from '../../../../connectors/crm-actions';
import { formatPlainDate, parseTrackerTimestamp } from '../../../../tracker/tracker-date';
import { calendarDayIn } from '../../../../time/time-zone';
import type { Order } from '../../../../tracker/types/orders.types';
import type { FlowPass, OutboundFlow, PlannedWrite } from '../../outbound-flow';
import { ordersWithVisits } from '../write-back/order-pages';
import { isRefusal, taskOnce, TaskVariables, TaskWrite } from './task-once';
import { managerTasksPlan, ManagerTasksPlan } from './task-settings';

const KEY = 'manager_tasks';
/** The fingerprint of a deal whose task was made: a deal gets one task ever, whatever happens to it afterwards. */
const MADE = 'task:created';
const ACTIONS = { required: ['find_tasks', 'create_task'], optional: ['deal_owner', 'read_tasks'] } as const;

export interface ManagerTasksPreview {
  connectionId: string;
  counters: Record<string, number>;
  tasks: { deal: string; created: string; title: string; text: string; manager: TaskManager | null }[];
}

/** The deal's responsible manager as last synced: its CRM id, and its name when the service has the manager. */
export interface TaskManager {
  id: string;
  name: string | null;
}

type TasksPass = FlowPass<ManagerTasksPlan> & { actions?: CrmActions };

/**
 * Tasks for managers, the third outbound flow: a deal of the connection that the service has had for `days` days
 * or more without a visit (it was sent without one: its ad source is unknown) gets a CRM task for its responsible
 * manager, asking how the client found us. One task per deal ever: the runner's fingerprint after the CRM took it,
 * and before each create a look-up of the deal's tasks (task-once.ts), so a crash or an unknown outcome never
 * makes a second one. The CRM side is three named actions (CrmActions) the preset ships under `manager_tasks`.
 */
export const managerTasksFlow: OutboundFlow<ManagerTasksPlan, Order, TaskWrite, ManagerTasksPreview> = {
  name: 'manager_tasks',
  stream: KEY,
  settingsKey: KEY,
  actions: ACTIONS,
  counting: { unchanged: 'already_created', written: 'created', rejected: 'rejected' },

  planOf(definition: ConnectorDefinition, settings: object): ManagerTasksPlan | null {
    return managerTasksPlan(definition.actions, settings, KEY);
  },

  noPlan(connectionId: string, definition: ConnectorDefinition): string {
    return definition.actions
      ? `connection ${connectionId}: settings.${KEY} is not set: no tasks are made for managers`
      : `connection ${connectionId}: connector ${definition.name} serves no CRM actions: it cannot make tasks`;
  },

  notConfigured(connectionId: string): string {
    return `connection ${connectionId} makes no manager tasks: its connector serves no CRM actions or settings.${KEY} is not set`;
  },

  /** The service's orders of the window, with their visits, page by page (as write-back's order pages). */
  async *read(pass: TasksPass): AsyncGenerator<Order[]> {
    const from = new Date(pass.now.getTime() - pass.plan.windowDays * 86_400_000);
    yield* ordersWithVisits(pass.tracker, from, pass.signal, `connection ${pass.connectionId}`);
  },

  /** The connection's deals of the page without a visit for `days` days: each one task, fingerprinted as made. */
  async planItems(orders: Order[], pass: TasksPass): Promise<PlannedWrite<TaskWrite>[]> {
    const before = pass.now.getTime() - pass.plan.days * 86_400_000;
    const old = orders.filter((order) => !order.visit && !order.tracker && createdAt(order) <= before);
    const ours = await pass.store.known(pass.connectionId, 'deals', old.map((order) => order.id));
    const due = old.filter((order) => ours.has(order.id));
    pass.counters.due += due.length;
    return due.map((order) => ({ id: order.id, write: taskWrite(order), fingerprint: MADE }));
  },

  async *write(writes: TaskWrite[], pass: TasksPass, context: WriteContext): AsyncGenerator<WriteOutcome[]> {
    for (const write of writes) {
      if (pass.signal?.aborted) return;
      try {
        const { made } = await taskOnce(openActions(pass, context), variables(write, pass), pass, pass.plan.settleMs);
        yield [{ id: write.deal, status: 'written', counter: made ? 'created' : 'already_created' } as WriteOutcome];
      } catch (error) {
        if (!isRefusal(error)) throw error;
        yield [{ id: write.deal, status: 'rejected', reason: error.message, field: error.field }];
      }
    }
  },

  writtenCounter(outcome): string {
    return (outcome as { counter?: string }).counter ?? 'created';
  },

  refusal(outcome) {
    return { field: outcome.field ?? KEY, reason: `deal ${outcome.id}: the task: ${outcome.reason}` };
  },

  /** What would be made, and for whom: the deals' managers as last synced, named from the service's managers. */
  async preview(planned, pass): Promise<ManagerTasksPreview> {
    const names = await managerNames(planned.flatMap(({ write }) => (write.manager ? [write.manager] : [])), pass);
    const tasks = planned.map(({ write }) => {
      const vars = variables(write, pass);
      const manager = write.manager ? { id: write.manager, name: names.get(write.manager) ?? null } : null;
      return { deal: write.deal, created: write.created, title: vars.title, text: vars.text, manager };
    });
    return { connectionId: pass.connectionId, counters: pass.counters, tasks };
  },
};

/**
 * `created`: the deal's UTC day. It is part of the task's text, by which an earlier task is found (task-once.ts):
 * a text that changed would not find the tasks made before, and make them again.
 */
function taskWrite(order: Order): TaskWrite {
  const write: TaskWrite = { deal: order.id, created: formatPlainDate(new Date(createdAt(order))) };
  const manager = order.custom_fields?.manager_id;
  if (manager !== undefined && manager !== null && String(manager).trim() !== '') write.manager = String(manager).trim();
  return write;
}

/**
 * The names of these managers (CRM ids), from the service's managers (one request, only when there are some to
 * name): the managers stream of the connection's syncs sent them. A dry run whose names cannot be read still
 * answers, naming the managers by id.
 */
async function managerNames(ids: string[], pass: TasksPass): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  try {
    const { data } = await pass.tracker.managers.list();
    return new Map((data ?? []).map((manager) => [String(manager.id), manager.name]));
  } catch (error) {
    pass.logger.warn(`connection ${pass.connectionId}: the service's managers could not be read (${(error as Error).message}): the dry run names managers by id only`);
    return new Map();
  }
}

function openActions(pass: TasksPass, context: WriteContext): CrmActions {
  if (pass.actions) return pass.actions;
  const actions = pass.definition.actions!.open(KEY, context);
  const missing = ACTIONS.required.filter((name) => !actions.has(name));
  if (missing.length) throw new Error(`connection ${pass.connectionId}: settings.${KEY}.actions.${missing[0]} is missing (missing: ${missing.join(', ')})`);
  pass.actions = actions;
  return actions;
}

/**
 * `due`, `due_ms`, `due_s`: the instant; `due_date`: a plain date (Pipedrive's activity `due_date` without a
 * `due_time`, an all-day task), the day of that instant in the account's zone, not in UTC: a task made at 22:30Z
 * (01:30 in Moscow) is due on the Moscow day after it.
 */
function variables(write: TaskWrite, pass: TasksPass): TaskVariables {
  const due = new Date(pass.now.getTime() + pass.plan.dueHours * 3_600_000);
  const fill = (template: string) => template.replace(/\{\{\s*(deal|created)\s*\}\}/g, (_m, name: 'deal' | 'created') => write[name]);
  return {
    deal: write.deal, title: fill(pass.plan.title), text: fill(pass.plan.text),
    due: due.toISOString(), due_ms: due.getTime(), due_s: Math.floor(due.getTime() / 1000), due_date: plainDate(due, pass.plan.zone),
  };
}

/** 'YYYY-MM-DD' of the instant in the zone (the plan's zone is one calendarDayIn reads: task-settings.ts). */
function plainDate(instant: Date, zone: string): string {
  return calendarDayIn(instant, zone) ?? instant.toISOString().slice(0, 10);
}

function createdAt(order: Order): number {
  const at = parseTrackerTimestamp(order.creation_date).getTime();
  return Number.isNaN(at) ? Infinity : at;
}
