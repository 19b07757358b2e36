import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsInt, IsNumber, IsObject, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import type { CrmActionsCapability } from '../../../../connectors/crm-actions';
import { calendarDayIn, SERVICE_ZONE } from '../../../../time/time-zone';
import type { FlowPlan } from '../../outbound-flow';

/** The flow's settings block (`settings.manager_tasks`): what the user writes; a preset ships `actions`. */
export class ManagerTasksSettings {
  /** a deal sent to the service this many days ago or more, still without a visit, gets a task */
  @IsOptional() @IsInt() @Min(1) days?: number;
  /** how far back deals are looked at (the service's order list of this many days, read page by page) */
  @IsOptional() @IsInt() @Min(1) @Max(366) window_days?: number;
  /** the task's title and text, templates over `{{deal}}` (the CRM's deal id) and `{{created}}` (its day) */
  @IsOptional() @IsString() title?: string;
  @IsOptional() @IsString() text?: string;
  /** the task is due this many hours after it is made */
  @IsOptional() @IsInt() @Min(1) due_hours?: number;
  /** cron of the flow's own passes (default every hour) */
  @IsOptional() @IsString() schedule?: string;
  /**
   * the least seconds between a task create's unknown outcome (a 5xx that is no rate refusal, a timeout) and its
   * look-up (default 10): a gateway's 504 or our timeout can come while the CRM still makes the task
   */
  @IsOptional() @IsNumber() @Min(0) settle_seconds?: number;
  /** the CRM's requests (presets ship them): find_tasks, create_task, and deal_owner when the CRM tells it */
  @IsOptional() @IsObject() actions?: Record<string, unknown>;
}

export const TASK_DEFAULTS = {
  days: 3,
  window_days: 30,
  title: 'Ask the client how they found us',
  text: 'Deal {{deal}} lacks its ad source (no visit since {{created}}): ask the client how they found us.',
  due_hours: 24,
  schedule: '0 * * * *',
  settle_seconds: 10,
} as const;

export interface ManagerTasksPlan extends FlowPlan {
  days: number;
  windowDays: number;
  title: string;
  text: string;
  dueHours: number;
  /** the least time (ms) after a task create's unknown outcome before it is looked up (`settle_seconds`) */
  settleMs: number;
  /**
   * the CRM account's zone, whose days a plain date is (`due_date`): the connection's `timezone`
   * setting (the generic CRM's zone of the account's local times), else the service's UTC+03:00
   */
  zone: string;
}

/** The connection's plan, or null when its settings have no `manager_tasks` block; a bad block throws naming the key. */
export function managerTasksPlan(capability: CrmActionsCapability | undefined, settings: object, key: string): ManagerTasksPlan | null {
  const block = capability?.block(settings, key);
  if (!block) return null;
  const mine = plainToInstance(ManagerTasksSettings, block);
  const problems = validateSync(mine, { whitelist: true, forbidNonWhitelisted: true }).map((e) => `settings.${key}.${e.property}: ${Object.entries(e.constraints ?? {}).map(([rule, m]) => (rule === 'whitelistValidation' ? 'unknown key' : m)).join('; ')}`);
  if (problems.length) throw new Error(problems.join('; '));
  return {
    schedule: mine.schedule ?? TASK_DEFAULTS.schedule,
    days: mine.days ?? TASK_DEFAULTS.days,
    windowDays: mine.window_days ?? TASK_DEFAULTS.window_days,
    title: mine.title ?? TASK_DEFAULTS.title,
    text: mine.text ?? TASK_DEFAULTS.text,
    dueHours: mine.due_hours ?? TASK_DEFAULTS.due_hours,
    settleMs: (mine.settle_seconds ?? TASK_DEFAULTS.settle_seconds) * 1000,
    zone: accountZone(settings),
  };
}

/** The connection's own `timezone` when it names a zone, else the service's (UTC+03:00). */
function accountZone(settings: object): string {
  const zone = (settings as { timezone?: unknown }).timezone;
  return typeof zone === 'string' && zone.trim() !== '' && calendarDayIn(new Date(0), zone.trim()) !== null ? zone.trim() : SERVICE_ZONE;
}
