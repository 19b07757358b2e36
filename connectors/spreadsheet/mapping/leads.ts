import type { Lead } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';
import { requiredInstant, RowMapper } from './row-mapper';

const LEAD_STATUSES = new Set(['0', '1', '2']);

/** leads: id, title, name, created_at, status (0 progress, 1 paid, 2 canceled; via status_map), email, phone, price, paid_at, visit_id, text */
export function leadMapper(r: CellReader): RowMapper<Lead> {
  const c = {
    id: r.col('id'), title: r.col('title'), name: r.col('name'), created: r.col('created_at'), status: r.col('status'),
    email: r.col('email'), phone: r.col('phone'), price: r.col('price'), paid: r.col('paid_at'), visit: r.col('visit_id'),
    text: r.col('text'),
  };
  return () => {
    const id = r.id(c.id, 'id', true) ?? '';
    const status = r.status(r.text(c.status)) ?? '0';
    if (!LEAD_STATUSES.has(status)) r.fail('status', `${JSON.stringify(status)} is not a lead status (0 progress, 1 paid, 2 canceled; map yours with status_map)`);
    const name = r.text(c.name);
    const lead: Lead = {
      id,
      title: r.text(c.title) ?? name ?? id,
      name: name ?? '',
      created_at: requiredInstant(r, c.created, 'created_at')!,
      status,
      email: r.text(c.email),
      phone: r.contact(c.phone, 'phone'),
      price: r.number(c.price, 'price'),
      paid_at: r.instant(c.paid, 'paid_at'),
      visit_id: r.id(c.visit, 'visit_id'),
      text: r.text(c.text),
    };
    return r.failed ? null : lead;
  };
}
