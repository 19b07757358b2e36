import type { CustomEvent, Expense, Lead, MediaPlanTarget } from '../../connectors/canonical';
import { formatTrackerDate } from '../../tracker/tracker-date';
import type { ExpenseAddRequest } from '../../tracker/types/channels.types';
import type { EventBulkSendItem } from '../../tracker/types/events.types';
import type { LeadCreateRequest, LeadStatusId } from '../../tracker/types/leads.types';
import type { MediaPlanCreateRequest, MediaPlanMetric } from '../../tracker/types/mediaplans.types';
import { finiteNumber, instant } from './mapping-error';

/** Bump when a change of the mapping or checks of a stream changes what is sent: its records are sent again once. */
export const EXPENSE_MAPPING_VERSION = 1;
export const MEDIAPLAN_MAPPING_VERSION = 1;
export const LEAD_MAPPING_VERSION = 1;
export const EVENT_MAPPING_VERSION = 1;

export function expenseToRequest(e: Expense): ExpenseAddRequest {
  const out: ExpenseAddRequest = { source: e.channel, from_date: e.from_date, to_date: e.to_date, marketing_cost: e.marketing_cost };
  if (e.timezone) out.timezone = e.timezone;
  return out;
}

export function mediaPlanToRequest(t: MediaPlanTarget): MediaPlanCreateRequest {
  const metrics: MediaPlanMetric[] = [];
  if (t.leads != null) metrics.push({ name: 'leads', value: t.leads });
  if (t.marketing_cost != null) metrics.push({ name: 'marketing_cost', value: t.marketing_cost });
  if (t.cpl != null) metrics.push({ name: 'cpl', value: t.cpl });
  return { channel: t.channel, date_from: t.date_from, date_to: t.date_to, metrics };
}

export function leadToCreateRequest(l: Lead): LeadCreateRequest {
  const out: LeadCreateRequest = {
    creation_date: instant(l.created_at, 'created_at', formatTrackerDate),
    name: l.name,
    title: l.title,
    status: l.status as LeadStatusId,
  };
  if (l.email) out.email = l.email;
  if (l.phone) out.phone = l.phone;
  const price = finiteNumber(l.price, 'price');
  if (price !== undefined) out.price = price;
  if (l.paid_at) out.paid_date = instant(l.paid_at, 'paid_at', formatTrackerDate);
  return out;
}

export function eventToBulkItem(e: CustomEvent): EventBulkSendItem {
  const out: EventBulkSendItem = { name: e.name };
  if (e.visit_id) out.visit = String(e.visit_id);
  if (e.data) out.data = { ...e.data };
  return out;
}
