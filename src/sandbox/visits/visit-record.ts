import type { Visit, VisitSummary } from '../../tracker/types/visits.types';

/** The Visit record of the specification (full form, as the visit list returns it). */
export type VisitRecord = Omit<Visit, 'first_id'>;

/** tracker_param1..50 (Limits table). */
export const TRACKER_PARAM_COUNT = 50;

export function emptyTrackerParams(): Record<string, string | null> {
  const params: Record<string, string | null> = {};
  for (let n = 1; n <= TRACKER_PARAM_COUNT; n += 1) params[String(n)] = null;
  return params;
}

/** The Visit summary of order info (`order.visit` and each item of `visits`). */
export function visitSummary(visit: VisitRecord, orderVisitId: string | null): VisitSummary {
  const levels = visit.source.display_name_by_level;
  return {
    id: visit.id,
    date: visit.date,
    city: visit.geo.city,
    country: visit.geo.country,
    country_icon: visit.geo.icon_url,
    is_first_visit: visit.id === visit.first_visit_id ? 1 : 0,
    is_order_visit: visit.id === orderVisitId ? 1 : 0,
    marker: levels.join(' / '),
    marker_info: levels.map((alias, index) => ({ marker: markerAt(visit, index), alias })),
    marker_icon: visit.source.icon_url,
    referrer: visit.source.referrer,
    landing_page: visit.landing_page,
    host: visit.host,
    os_name: visit.device.os,
    os_icon: visit.device.os_icon,
    browser_name: visit.device.agent,
    browser_icon: visit.device.agent_icon,
  };
}

function markerAt(visit: VisitRecord, level: number): string {
  const parts = [visit.source.system_name, visit.source.utm_campaign, visit.source.utm_content].filter((part) => !!part);
  return parts.slice(0, level + 1).join('::');
}
