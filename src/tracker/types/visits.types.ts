import { AndOrTripleFilters } from '../filters';
import { Paging, StatusResponse } from './common.types';

export interface VisitDevice {
  os: string;
  os_icon: string;
  agent: string;
  agent_icon: string;
  is_mobile: boolean;
}

export interface VisitSource {
  referrer: string;
  system_name: string;
  display_name: string;
  display_name_by_level: string[];
  icon_url: string;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  openstat: string | null;
}

export interface VisitGeo {
  country: string;
  region: string;
  city: string;
  icon_url: string;
  country_iso: string;
}

export interface VisitAbTest {
  test_id: number;
  test_title: string;
  variant_id: string;
  variant_title: string;
}

/** Visit (full record). */
export interface Visit {
  id: string;
  /** An earlier form of the response names it `first_id`. */
  first_visit_id: string;
  first_id?: string;
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
  /** Keys '1' to '50'. */
  tracker_params: Record<string, string | null>;
  device: VisitDevice;
  source: VisitSource;
  geo: VisitGeo;
  order_ids: string[];
  cost: number;
  ab_test: VisitAbTest[];
}

/** Visit summary (in order detail). */
export interface VisitSummary {
  id: string;
  date: string;
  city: string;
  country: string;
  country_icon: string;
  is_first_visit: 0 | 1;
  is_order_visit: 0 | 1;
  marker: string;
  marker_info: Array<{ marker: string; alias: string }>;
  marker_icon: string;
  referrer: string;
  landing_page: string;
  host: string;
  os_name: string;
  os_icon: string;
  browser_name: string;
  browser_icon: string;
}

/** Filters use dotted names for nested fields ('source.system_name'). */
export interface VisitListRequest extends Paging {
  filters?: AndOrTripleFilters;
}

/** The spec shows `data` as one object; lists of several come back as an array. */
export interface VisitListResponse extends StatusResponse {
  data: Visit | Visit[];
  total: number;
}

/** `tracker_paramN` with N from 1 to 50 (checked by checkVisitParams). */
export type TrackerParamKey = `tracker_param${number}`;

export type VisitParamsUpdateRequest = { visit: string } & { [K in TrackerParamKey]?: string | null };
