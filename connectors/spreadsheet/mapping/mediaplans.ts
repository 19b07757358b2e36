import type { MediaPlanTarget } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';
import type { RowMapper } from './row-mapper';

const YEAR_MONTH = /^(\d{4})-(\d{1,2})$/;
const MONTH_YEAR = /^(\d{1,2})[./](\d{4})$/;

/**
 * mediaplans: channel, month ('2025-03', '03.2025' or any date in the month) or date_from[/date_to],
 * leads, marketing_cost, cpl. The service plans whole months, so date_to is the month's last day;
 * id (optional) defaults to channel:date_from.
 */
export function mediaPlanMapper(r: CellReader): RowMapper<MediaPlanTarget> {
  const c = {
    id: r.col('id'), channel: r.col('channel'), month: r.col('month'), from: r.col('date_from'), to: r.col('date_to'),
    leads: r.col('leads'), cost: r.col('marketing_cost'), cpl: r.col('cpl'),
  };
  return () => {
    const channel = r.required(c.channel, 'channel');
    const first = c.month >= 0 ? monthStart(r, c.month, 'month') : monthStart(r, c.from, 'date_from');
    const last = first === null ? null : monthEnd(first);
    if (last !== null && c.to >= 0 && c.month < 0) {
      const to = r.day(c.to, 'date_to');
      if (to !== null && to !== last) r.fail('date_to', `${to} is not the last day of the month of ${first} (${last})`);
    }
    const plan: MediaPlanTarget = {
      id: r.id(c.id, 'id') ?? `${channel}:${first}`,
      channel: channel ?? '',
      date_from: first ?? '',
      date_to: last ?? '',
      leads: r.number(c.leads, 'leads'),
      marketing_cost: r.number(c.cost, 'marketing_cost'),
      cpl: r.number(c.cpl, 'cpl'),
    };
    return r.failed ? null : plan;
  };
}

function monthStart(r: CellReader, col: number, field: string): string | null {
  const text = r.text(col);
  if (text === null) {
    r.fail(field, col < 0 ? 'no month or date_from column' : 'is empty');
    return null;
  }
  const ym = YEAR_MONTH.exec(text) ?? swap(MONTH_YEAR.exec(text));
  if (ym) {
    const month = Number(ym[2]);
    if (month >= 1 && month <= 12) return `${ym[1]}-${String(month).padStart(2, '0')}-01`;
  }
  const day = r.day(col, field);
  return day === null ? null : `${day.slice(0, 8)}01`;
}

function swap(match: RegExpExecArray | null): string[] | null {
  return match ? [match[0], match[2], match[1]] : null;
}

function monthEnd(first: string): string {
  const year = Number(first.slice(0, 4));
  const month = Number(first.slice(5, 7));
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${first.slice(0, 8)}${last}`;
}
