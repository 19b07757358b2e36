import { badRequest } from '../errors/sandbox-error';
import type { FilterClause } from '../filters/triple-filter';
import { STATUS_GROUP_BY_NUMBER } from '../projects/default-statuses';
import { normalizeDateBound } from '../storage/order-date';

/** Order list fields that can be filtered, and their columns. Visit properties, custom fields and source_type cannot. */
const ORDER_FILTER_COLUMNS: Record<string, string> = {
  id: 'o.id', creation_date: 'o.creation_date', update_date: 'o.update_date', paid_date: 'o.paid_date',
  revenue: 'o.revenue', cost: 'o.cost', client_id: 'o.client_id', visit_id: 'o.tracker', tracker: 'o.tracker',
  name: 'o.name', status_id: 'o.status_id',
};
const DATE_FIELDS = new Set(['creation_date', 'update_date', 'paid_date']);
const NUMBER_FIELDS = new Set(['revenue', 'cost']);
const COMPARISONS: Record<string, string> = { '=': '=', '!=': '!=', '>': '>', '<': '<', '>=': '>=', '<=': '<=' };

export interface SqlWhere {
  sql: string;
  params: unknown[];
}

/** Translates the order list's triples to SQL; `status` takes the group numbers 0, 1, 2. */
export function orderFilterSql(projectId: number, clauses: FilterClause[]): SqlWhere {
  const parts = ['o.project_id = ?'];
  const params: unknown[] = [projectId];
  clauses.forEach((clause, index) => {
    const part = clause.field === 'status' ? statusSql(projectId, clause, index) : columnSql(clause, index);
    parts.push(part.sql);
    params.push(...part.params);
  });
  return { sql: parts.join(' AND '), params };
}

function columnSql(clause: FilterClause, index: number): SqlWhere {
  const column = ORDER_FILTER_COLUMNS[clause.field];
  if (!column) {
    throw badRequest(`filters.and[${index}]`,
      `filters.and[${index}]: field ${clause.field} cannot be filtered in the order list (one of ${[...Object.keys(ORDER_FILTER_COLUMNS), 'status'].join(', ')})`);
  }
  const convert = (value: unknown): unknown => DATE_FIELDS.has(clause.field) ? normalizeDateBound(value)
    : NUMBER_FIELDS.has(clause.field) && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : String(value);
  const { operator, value } = clause;
  if (COMPARISONS[operator]) {
    if (operator === '!=') return { sql: `(${column} IS NULL OR ${column} != ?)`, params: [convert(value)] };
    return { sql: `${column} ${COMPARISONS[operator]} ?`, params: [convert(value)] };
  }
  if (operator === 'like') return { sql: `${column} LIKE ?`, params: [`%${String(value).replace(/%/g, '')}%`] };
  if (operator === 'like%') return { sql: `${column} LIKE ?`, params: [`${String(value).replace(/%/g, '')}%`] };
  const values = (value as unknown[]).map(convert);
  if (operator === 'in') {
    if (values.length === 0) return { sql: '0 = 1', params: [] };
    return { sql: `${column} IN (${values.map(() => '?').join(',')})`, params: values };
  }
  // contains_all on a single-valued column: the value must contain every item.
  if (values.length === 0) return { sql: '1 = 1', params: [] };
  return { sql: values.map(() => `${column} LIKE ?`).join(' AND '), params: values.map((item) => `%${String(item)}%`) };
}

function statusSql(projectId: number, clause: FilterClause, index: number): SqlWhere {
  const groups = (Array.isArray(clause.value) ? clause.value : [clause.value]).map((value) => {
    const group = STATUS_GROUP_BY_NUMBER[String(value)];
    if (!group) throw badRequest(`filters.and[${index}]`, `filters.and[${index}]: status takes 0, 1 or 2, got ${JSON.stringify(value)}`);
    return group;
  });
  if (!['=', '!=', 'in'].includes(clause.operator)) {
    throw badRequest(`filters.and[${index}]`, `filters.and[${index}]: status takes the operators =, != and in`);
  }
  const negate = clause.operator === '!=' ? 'NOT ' : '';
  return {
    sql: `o.status_id ${negate}IN (SELECT s.id FROM sb_order_status s WHERE s.project_id = ? AND s.type IN (${groups.map(() => '?').join(',')}))`,
    params: [projectId, ...groups],
  };
}
