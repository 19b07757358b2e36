/**
 * Checks of payloads against the specification's limits, before anything is sent.
 * Pure functions: each returns every problem found, naming the record and the field,
 * so the engine can reject one record and send the rest.
 */
import {
  MAX_CATEGORY_LEVELS, MAX_FIELD_SYMBOLS, isCategoryLevel, isFieldTooLong, isProductQuantity, orderDateMs, symbolCount,
} from './add-orders-rules';
import { AddOrder, AddOrderProduct } from './types/orders.types';
import { ImportClient } from './types/clients.types';
import { ManagerInput } from './types/managers.types';
import { MediaPlanCreateRequest } from './types/mediaplans.types';
import { CURRENCIES, ProjectCreateRequest } from './types/projects.types';
import { LeadCreateRequest, LeadUpdateRequest } from './types/leads.types';
import { ExpenseAddRequest } from './types/channels.types';

export interface PayloadProblem {
  /** Record id, or '#index' when the record has none. */
  id: string;
  /** Path of the field, e.g. 'fields.comment', 'products[0].category.level6'. */
  field: string;
  reason: string;
}

export { MAX_CATEGORY_LEVELS, MAX_FIELD_SYMBOLS };
export const TRACKER_PARAM_MAX = 50;
const LEAD_STATUSES = ['0', '1', '2'];
const MEDIA_PLAN_METRICS = ['leads', 'marketing_cost', 'cpl'];

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type Collect = (field: string, reason: string) => void;

function collector(id: string, problems: PayloadProblem[]): Collect {
  return (field, reason) => problems.push({ id, field, reason });
}

function recordId(id: unknown, index?: number): string {
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number') return String(id);
  return index === undefined ? '(no id)' : `#${index}`;
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 40 ? `"${text.slice(0, 40)}…"` : `"${text}"`;
}

function isText(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

function requireText(add: Collect, field: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '') add(field, 'is required');
}

function checkFieldValues(add: Collect, fields: Record<string, unknown> | undefined, prefix = 'fields'): void {
  if (fields === undefined || fields === null) return;
  // for…in, not Object.keys: it runs for every record sent, and a key list is an array each time
  for (const name in fields) {
    if (!Object.prototype.hasOwnProperty.call(fields, name)) continue;
    const value = fields[name];
    if (value === null) continue;
    if (typeof value !== 'string') {
      add(`${prefix}.${name}`, `must be a string or null, got ${typeof value}`);
    } else if (isFieldTooLong(value)) {
      add(`${prefix}.${name}`, `has ${symbolCount(value)} symbols, at most ${MAX_FIELD_SYMBOLS} allowed`);
    }
  }
}

function isPlainDate(value: unknown): value is string {
  const m = typeof value === 'string' ? PLAIN_DATE.exec(value) : null;
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

// ---- orders ------------------------------------------------------------------------

export function checkAddOrder(order: AddOrder, index?: number): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const add = collector(recordId(order.id, index), problems);
  if (order.date_create !== undefined && Number.isNaN(orderDateMs(order.date_create))) {
    add('date_create', `${quote(order.date_create)} is neither UNIX time nor a real date 'YYYY-MM-DD HH:MM:SS+0000'`);
  }
  checkFieldValues(add, order.fields);
  const products = order.products;
  if (products) for (let i = 0; i < products.length; i++) checkProduct(add, products[i], i);
  order.history?.forEach((h, i) => {
    if (h.date !== undefined && Number.isNaN(orderDateMs(h.date))) {
      add(`history[${i}].date`, `${quote(h.date)} is neither UNIX time nor a real date 'YYYY-MM-DD HH:MM:SS+0000'`);
    }
  });
  return problems;
}

/** Runs once per product of every order: field paths are only built for a problem. */
function checkProduct(add: Collect, p: AddOrderProduct, index: number): void {
  if (!isText(p.id)) add(`products[${index}].id`, 'is required');
  if (!isText(p.name)) add(`products[${index}].name`, 'is required');
  if (!isProductQuantity(p.quantity)) add(`products[${index}].quantity`, `${quote(p.quantity)} is not an integer (required)`);
  if (!p.category) return;
  const at = `products[${index}]`;
  for (const key in p.category) {
    if (Object.prototype.hasOwnProperty.call(p.category, key) && !isCategoryLevel(key)) add(`${at}.category.${key}`, `category nesting is at most ${MAX_CATEGORY_LEVELS} levels (level1..level5)`);
  }
}

// ---- clients, managers ---------------------------------------------------------------

export function checkImportClient(client: ImportClient, index?: number): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const add = collector(recordId(client.id, index), problems);
  requireText(add, 'id', client.id);
  requireText(add, 'name', client.name);
  if (client.birth_date !== undefined && client.birth_date !== null && !isPlainDate(client.birth_date)) {
    add('birth_date', `${quote(client.birth_date)} is not a date YYYY-MM-DD`);
  }
  checkFieldValues(add, client.fields);
  return problems;
}

export function checkManager(manager: ManagerInput, index?: number): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const add = collector(recordId(manager.id, index), problems);
  requireText(add, 'id', manager.id);
  requireText(add, 'name', manager.name);
  if (!manager.phone && !manager.email) add('phone', 'phone or email must be given');
  return problems;
}

// ---- media plans, expenses, projects, leads, visits ------------------------------------

export function checkMediaPlan(plan: MediaPlanCreateRequest & { id?: string }, index?: number): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const add = collector(recordId(plan.id ?? (plan.channel && `${plan.channel}:${plan.date_from}`), index), problems);
  requireText(add, 'channel', plan.channel);
  checkMonthBounds(add, plan.date_from, plan.date_to);
  if (!Array.isArray(plan.metrics) || plan.metrics.length === 0) add('metrics', 'is required');
  plan.metrics?.forEach((m, i) => {
    if (!MEDIA_PLAN_METRICS.includes(m.name)) add(`metrics[${i}].name`, `${quote(m.name)} is not one of ${MEDIA_PLAN_METRICS.join(', ')}`);
    if (!Number.isInteger(m.value)) add(`metrics[${i}].value`, `${quote(m.value)} is not an integer`);
  });
  return problems;
}

/** Media plan dates: the first and the last day of one and the same month. */
function checkMonthBounds(add: Collect, from: unknown, to: unknown): void {
  if (!isPlainDate(from)) return add('date_from', `${quote(from)} is not a date YYYY-MM-DD`);
  if (!isPlainDate(to)) return add('date_to', `${quote(to)} is not a date YYYY-MM-DD`);
  if (!from.endsWith('-01')) add('date_from', `${from} is not the first day of a month`);
  const lastDay = new Date(Date.UTC(+from.slice(0, 4), +from.slice(5, 7), 0)).getUTCDate();
  const expectedTo = `${from.slice(0, 8)}${String(lastDay).padStart(2, '0')}`;
  if (to !== expectedTo) add('date_to', `${to} is not the last day of the month of date_from (${expectedTo})`);
}

export function checkExpense(expense: ExpenseAddRequest, index?: number): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const add = collector(recordId(expense.source && `${expense.source}:${expense.from_date}`, index), problems);
  requireText(add, 'source', expense.source);
  if (!isPlainDate(expense.from_date)) add('from_date', `${quote(expense.from_date)} is not a date YYYY-MM-DD`);
  if (!isPlainDate(expense.to_date)) add('to_date', `${quote(expense.to_date)} is not a date YYYY-MM-DD`);
  else if (isPlainDate(expense.from_date) && expense.to_date < expense.from_date) add('to_date', 'is before from_date');
  if (!Number.isInteger(expense.marketing_cost)) add('marketing_cost', `${quote(expense.marketing_cost)} is not an integer`);
  return problems;
}

export function checkProjectCreate(req: ProjectCreateRequest): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const add = collector(recordId(req.name), problems);
  requireText(add, 'name', req.name);
  if (!(CURRENCIES as readonly string[]).includes(req.currency)) {
    add('currency', `${quote(req.currency)} is not one of ${CURRENCIES.join(', ')}`);
  }
  return problems;
}

/** A lead to create (id absent) or to update (id present: only given fields are checked). */
export function checkLead(lead: LeadCreateRequest | LeadUpdateRequest, index?: number): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const isUpdate = 'id' in lead && lead.id !== undefined;
  const add = collector(recordId(isUpdate ? (lead as LeadUpdateRequest).id : undefined, index), problems);
  if (!isUpdate) {
    for (const f of ['creation_date', 'name', 'title'] as const) requireText(add, f, lead[f]);
  }
  if ((!isUpdate || lead.status !== undefined) && !LEAD_STATUSES.includes(String(lead.status))) {
    add('status', `${quote(lead.status)} is not one of '0', '1', '2'`);
  }
  if (lead.price !== undefined && !Number.isInteger(lead.price)) add('price', `${quote(lead.price)} is not an integer`);
  return problems;
}

export function checkVisitParams(req: { visit: string } & Record<string, unknown>): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const add = collector(recordId(req.visit), problems);
  requireText(add, 'visit', req.visit);
  for (const [key, value] of Object.entries(req)) {
    if (key === 'visit') continue;
    const m = /^tracker_param(\d+)$/.exec(key);
    if (!m || +m[1] < 1 || +m[1] > TRACKER_PARAM_MAX || m[1].startsWith('0')) {
      add(key, `only tracker_param1 to tracker_param${TRACKER_PARAM_MAX} can be set`);
    } else if (value !== null && typeof value !== 'string') {
      add(key, `must be a string or null, got ${typeof value}`);
    }
  }
  return problems;
}

/** One line per problem: 'record 42, field fields.comment: has 1001 symbols…'. */
export function describeProblems(problems: PayloadProblem[]): string {
  return problems.map((p) => `record ${p.id}, field ${p.field}: ${p.reason}`).join('; ');
}
