import type { Expense } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';
import { requiredDay, RowMapper } from './row-mapper';

/**
 * expenses: id (optional: channel:from:to), channel, from_date, to_date, marketing_cost, timezone. The period's
 * days are days of `timezone`: the row's own column, else the zone the connection's settings give the sheet
 * (`settings.expenses.timezone`), else none is sent and the service counts them in its own zone (Moscow time).
 */
export function expenseMapper(r: CellReader): RowMapper<Expense> {
  const c = {
    id: r.col('id'), channel: r.col('channel'), from: r.col('from_date'), to: r.col('to_date'),
    cost: r.col('marketing_cost'), zone: r.col('timezone'),
  };
  return () => {
    const channel = r.required(c.channel, 'channel');
    const from = requiredDay(r, c.from, 'from_date');
    const to = requiredDay(r, c.to, 'to_date');
    const cost = r.number(c.cost, 'marketing_cost');
    if (cost === null) r.fail('marketing_cost', c.cost < 0 ? 'no marketing_cost column' : 'is empty');
    if (from !== null && to !== null && from > to) r.fail('to_date', `${to} is before from_date ${from}`);
    const id = r.id(c.id, 'id');
    if (r.failed) return null;
    return {
      id: id ?? `${channel}:${from}:${to}`,
      channel: channel!,
      from_date: from!,
      to_date: to!,
      marketing_cost: cost!,
      timezone: r.text(c.zone) ?? r.sheetZone,
    };
  };
}
