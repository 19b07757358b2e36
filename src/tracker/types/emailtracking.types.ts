import { AndOrTripleFilters } from '../filters';
import { Paging, SortPair, StatusResponse } from './common.types';

export interface TrackedEmailVisit {
  id: number;
  first_id: number;
  date: string;
  referrer: string;
  host: string;
  landing_page: string;
  agent: string;
  ip: string;
  google_client_id: string | null;
  metrics_client_id: string | null;
  source: {
    system_name: string;
    display_name: string;
    icon_url: string;
    utm_source: string | null;
    utm_medium: string | null;
    utm_campaign: string | null;
    utm_term: string | null;
    utm_content: string | null;
    openstat: string | null;
    referrer: string;
  };
}

export interface TrackedEmailOrder {
  id: number;
  url: string;
  source_type: string;
  creation_date: string;
  update_date: string | null;
  revenue: number;
  cost: number;
  client_id: number;
  visit_id: number;
  page: null;
  status: { id: number; type: string; name: string };
  custom_fields: Record<string, unknown>;
}

export interface TrackedEmail {
  id: string;
  date: string;
  email_from: string;
  email_to: string;
  subject: string;
  body: string;
  visit_id: string;
  order_id: string;
  /** Filled when `extend` contains 'visit'. */
  visit: TrackedEmailVisit | null;
  /** Filled when `extend` contains 'order'. */
  order: TrackedEmailOrder | null;
  attachment_ids: number[];
}

export interface TrackedEmailListRequest extends Paging {
  filters?: AndOrTripleFilters;
  extend?: Array<'visit' | 'order'>;
  sort?: SortPair;
}

export interface TrackedEmailListResponse extends StatusResponse {
  data: TrackedEmail[];
  total: number;
}
