/** The Visit record of the specification (full form, as the visit list returns it). */
export interface VisitRecord {
  id: string;
  first_visit_id: string;
  date: string;
  landing_page: string;
  host: string;
  google_client_id: string | null;
  metrics_client_id: string | null;
  gclid: string | null;
  fbc: string | null;
  fbp: string | null;
  ip: string;
  tracker_param1: string | null;
  tracker_param2: string | null;
  tracker_param3: string | null;
  tracker_param4: string | null;
  tracker_param5: string | null;
  tracker_params: Record<string, string | null>;
  device: { os: string; os_icon: string; agent: string; agent_icon: string; is_mobile: boolean };
  source: {
    referrer: string; system_name: string; display_name: string; display_name_by_level: string[]; icon_url: string;
    utm_source: string | null; utm_medium: string | null; utm_campaign: string | null; utm_term: string | null;
    utm_content: string | null; openstat: string | null;
  };
  geo: { country: string; region: string; city: string; icon_url: string; country_iso: string };
  order_ids: string[];
  cost: number;
  ab_test: { test_id: number; test_title: string; variant_id: string; variant_title: string }[];
}

/** tracker_param1..50 (Limits table). */
export const TRACKER_PARAM_COUNT = 50;

export function emptyTrackerParams(): Record<string, string | null> {
  const params: Record<string, string | null> = {};
  for (let n = 1; n <= TRACKER_PARAM_COUNT; n += 1) params[String(n)] = null;
  return params;
}

/** The Visit summary of order info (`order.visit` and each item of `visits`). */
export function visitSummary(visit: VisitRecord, orderVisitId: string | null): Record<string, unknown> {
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
