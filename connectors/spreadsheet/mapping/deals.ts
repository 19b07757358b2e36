import type { Deal } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';
import { historyReader, productsReader, readCustomFields } from './deal-parts';
import { requiredInstant, RowMapper } from './row-mapper';

/**
 * deals: id, title, status, created_at, updated_at, closed_at, price, cost, visit_id, client_id, manager_id, products,
 * history. A price or cost column's empty cell is null (the service clears the order's value); without the column
 * the field is left out (undefined: the service keeps what it has).
 */
export function dealMapper(r: CellReader): RowMapper<Deal> {
  const c = {
    id: r.col('id'), title: r.col('title'), status: r.col('status'), created: r.col('created_at'), updated: r.col('updated_at'),
    closed: r.col('closed_at'), price: r.col('price'), cost: r.col('cost'), visit: r.col('visit_id'), client: r.col('client_id'),
    manager: r.col('manager_id'),
  };
  const { extraColumns, extraNames } = r.layout;
  const products = productsReader(r);
  const history = historyReader(r);
  return () => {
    const id = r.id(c.id, 'id', true);
    const deal: Deal = {
      id: id ?? '',
      title: r.text(c.title),
      created_at: requiredInstant(r, c.created, 'created_at')!,
      updated_at: r.instant(c.updated, 'updated_at'),
      status: r.status(r.text(c.status)),
      visit_id: r.id(c.visit, 'visit_id'),
      price: c.price >= 0 ? r.number(c.price, 'price') : undefined,
      cost: c.cost >= 0 ? r.number(c.cost, 'cost') : undefined,
      client_id: r.id(c.client, 'client_id'),
      manager_id: r.id(c.manager, 'manager_id'),
    };
    // the engine dates the deal's move into its status then, when its history has no entry with the status
    const closed = r.instant(c.closed, 'closed_at');
    if (closed) deal.closed_at = closed;
    if (extraColumns.length > 0) deal.custom_fields = readCustomFields(r, extraColumns, extraNames);
    if (products) deal.products = products();
    if (history) deal.history = history();
    return r.failed ? null : deal;
  };
}
