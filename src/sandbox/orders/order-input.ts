import { isCategoryLevel, isFieldTooLong, isProductQuantity } from '../../tracker/add-orders-rules';
import { badRequest } from '../errors/sandbox-error';
import { parseDateCreate } from '../storage/order-date';

export interface OrderProduct {
  id: string;
  name: string;
  quantity: number;
  price: number | null;
  cost: number | null;
  brand: string | null;
  variant: string | null;
  category: Record<string, string>;
}

export interface OrderHistoryEntry {
  date: string | null;
  price: number | null;
  cost: number | null;
  status: string | null;
}

/** One add-orders item after structural checks; `undefined` means "not given, keep stored". */
export interface OrderInput {
  id: string;
  name?: string | null;
  /** UTC service timestamp; null when `date_create` was given in an invalid form. */
  creationDate?: string | null;
  dateInvalid: boolean;
  statusId?: string;
  tracker?: string | null;
  clientId?: string | null;
  revenue?: number | null;
  cost?: number | null;
  fields?: Record<string, string | null>;
  /** Custom fields dropped for exceeding the symbol limit. */
  droppedFields: number;
  products?: OrderProduct[];
  history?: OrderHistoryEntry[];
}

type Raw = Record<string, unknown>;

/**
 * Structural checks of one order (wrong types → 400 naming the field, e.g. `[2].products[0].quantity`).
 * Value-level rules (date format, long fields) do not fail the request: they are reported in counters.
 */
export function readOrderInput(item: unknown, index: number): OrderInput {
  const path = `[${index}]`;
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(path, `${path}: each order must be an object`);
  const raw = item as Raw;
  const id = scalarText(raw.id, `${path}.id`);
  if (id === null || id === undefined || id === '') throw badRequest(`${path}.id`, `${path}.id: required order id is missing`);
  const order: OrderInput = { id, dateInvalid: false, droppedFields: 0 };
  if (raw.name !== undefined) order.name = scalarText(raw.name, `${path}.name`);
  if (raw.date_create !== undefined && raw.date_create !== null && raw.date_create !== '') {
    order.creationDate = parseDateCreate(raw.date_create);
    order.dateInvalid = order.creationDate === null;
  }
  if (raw.status !== undefined && raw.status !== null) order.statusId = scalarText(raw.status, `${path}.status`) ?? undefined;
  if (raw.tracker !== undefined) order.tracker = emptyToNull(scalarText(raw.tracker, `${path}.tracker`));
  if (raw.client_id !== undefined) order.clientId = emptyToNull(scalarText(raw.client_id, `${path}.client_id`));
  if (raw.price !== undefined) order.revenue = money(raw.price, `${path}.price`);
  if (raw.cost !== undefined) order.cost = money(raw.cost, `${path}.cost`);
  if (raw.fields !== undefined && raw.fields !== null) readFields(raw.fields, `${path}.fields`, order);
  if (raw.products !== undefined && raw.products !== null) order.products = readProducts(raw.products, `${path}.products`);
  if (raw.history !== undefined && raw.history !== null) order.history = readHistory(raw.history, `${path}.history`);
  return order;
}

/** Rule: a custom field over 1000 symbols is dropped (counted), the order keeps its other fields. */
function readFields(value: unknown, path: string, order: OrderInput): void {
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(path, `${path}: must be an object of name to value`);
  const fields: Record<string, string | null> = {};
  for (const [name, fieldValue] of Object.entries(value as Raw)) {
    const text = fieldValue === null ? null : typeof fieldValue === 'object' ? JSON.stringify(fieldValue) : String(fieldValue);
    if (text !== null && isFieldTooLong(text)) {
      order.droppedFields += 1;
      continue;
    }
    fields[name] = text;
  }
  order.fields = fields;
}

function readProducts(value: unknown, path: string): OrderProduct[] {
  if (!Array.isArray(value)) throw badRequest(path, `${path}: must be an array`);
  return value.map((item, index) => {
    const at = `${path}[${index}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(at, `${at}: must be an object`);
    const raw = item as Raw;
    const id = scalarText(raw.id, `${at}.id`);
    const name = scalarText(raw.name, `${at}.name`);
    if (!id) throw badRequest(`${at}.id`, `${at}.id: required product id is missing`);
    if (!name) throw badRequest(`${at}.name`, `${at}.name: required product name is missing`);
    if (!isProductQuantity(raw.quantity)) {
      throw badRequest(`${at}.quantity`, `${at}.quantity: required integer is missing or not an integer`);
    }
    return {
      id, name, quantity: raw.quantity,
      price: number(raw.price, `${at}.price`), cost: number(raw.cost, `${at}.cost`),
      brand: scalarText(raw.brand, `${at}.brand`) ?? null, variant: scalarText(raw.variant, `${at}.variant`) ?? null,
      category: readCategory(raw.category, `${at}.category`),
    };
  });
}

/** Rule: product categories nest up to 5 levels (`level1`..`level5`). */
function readCategory(value: unknown, path: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(path, `${path}: must be an object with level1..level5`);
  const category: Record<string, string> = {};
  for (const [level, name] of Object.entries(value as Raw)) {
    if (!isCategoryLevel(level)) {
      throw badRequest(`${path}.${level}`, `${path}.${level}: categories nest up to 5 levels (level1..level5)`);
    }
    const text = scalarText(name, `${path}.${level}`);
    if (text) category[level] = text;
  }
  return category;
}

function readHistory(value: unknown, path: string): OrderHistoryEntry[] {
  if (!Array.isArray(value)) throw badRequest(path, `${path}: must be an array`);
  return value.map((item, index) => {
    const at = `${path}[${index}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(at, `${at}: must be an object`);
    const raw = item as Raw;
    return {
      date: scalarText(raw.date, `${at}.date`) ?? null,
      price: number(raw.price, `${at}.price`),
      cost: number(raw.cost, `${at}.cost`),
      status: scalarText(raw.status, `${at}.status`) ?? null,
    };
  });
}

function scalarText(value: unknown, path: string): string | null | undefined {
  if (value === undefined || value === null) return value as null | undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw badRequest(path, `${path}: must be a string, got ${Array.isArray(value) ? 'array' : typeof value}`);
}

function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

/** `price`/`cost`: null or a number (string or JSON number); the service keeps integers. */
function money(value: unknown, path: string): number | null {
  const parsed = number(value, path);
  return parsed === null ? null : Math.round(parsed);
}

function number(value: unknown, path: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  const parsed = typeof value === 'string' ? Number(value.replace(',', '.').trim()) : value;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) {
    throw badRequest(path, `${path}: must be a number, got ${JSON.stringify(value)}`);
  }
  return parsed;
}
