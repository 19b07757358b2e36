import { formatPeriodBound, parseTrackerTimestamp } from '../../../tracker/tracker-date';
import type { TrackerClient } from '../../../tracker/tracker-client';
import type { ExpenseAddRequest } from '../../../tracker/types/channels.types';
import type { LeadCreateRequest } from '../../../tracker/types/leads.types';
import type { MediaPlanCreateRequest, MediaPlanMetric } from '../../../tracker/types/mediaplans.types';

/**
 * After a create call that may have landed: is the record in the service? The create bodies carry no id of
 * ours, so each record is looked up by what identifies it: a lead by its creation time (to the second), name
 * and title; a media plan by its channel, month and metrics; an expense by its channel, period and cost.
 */

export async function leadLanded(tracker: TrackerClient, lead: LeadCreateRequest): Promise<boolean> {
  const at = parseTrackerTimestamp(lead.creation_date);
  const answer = await tracker.leads.list({
    period: { from: formatPeriodBound(at), to: formatPeriodBound(new Date(at.getTime() + 999)) },
    filters: [
      { field: 'name', operator: '=', value: lead.name },
      { field: 'title', operator: '=', value: lead.title },
    ],
    sort_field: 'creation_date',
    limit: 10,
  });
  return (answer.leads ?? []).some((l) => l.name === lead.name && l.title === lead.title && sameTime(l.creation_date, at));
}

export async function mediaPlanLanded(tracker: TrackerClient, plan: MediaPlanCreateRequest): Promise<boolean> {
  const answer = await tracker.mediaplans.list({ date_from: plan.date_from, date_to: plan.date_to });
  return (answer.data ?? []).some((p) => p.channel === plan.channel && sameMetrics(p.metrics, plan.metrics));
}

export async function expenseLanded(tracker: TrackerClient, expense: ExpenseAddRequest): Promise<boolean> {
  const listed = (await tracker.channels.listExpenses()) as unknown as Record<string, unknown>[];
  return listed.some(
    (e) =>
      String(e.source ?? e.source_name) === expense.source &&
      e.from_date === expense.from_date &&
      e.to_date === expense.to_date &&
      Number(e.marketing_cost) === expense.marketing_cost &&
      (!expense.timezone || e.timezone === expense.timezone),
  );
}

function sameTime(text: string | undefined, at: Date): boolean {
  try {
    return !!text && Math.floor(parseTrackerTimestamp(text).getTime() / 1000) === Math.floor(at.getTime() / 1000);
  } catch {
    return false;
  }
}

function sameMetrics(stored: MediaPlanMetric[] | undefined, sent: MediaPlanMetric[]): boolean {
  const byName = new Map((stored ?? []).map((m) => [m.name, Number(m.value)]));
  return byName.size === sent.length && sent.every((m) => byName.get(m.name) === m.value);
}
