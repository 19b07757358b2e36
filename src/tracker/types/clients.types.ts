import { AndOrTripleFilters, TripleFilters } from '../filters';
import { Paging, StatusResponse, StatusType } from './common.types';

/** One client of clients/import. */
export interface ImportClient {
  /** CRM client id. */
  id: string;
  name: string;
  /** One or several numbers, comma-separated; phone or email should be given. */
  phone?: string | null;
  email?: string | null;
  company?: string | null;
  /** 'YYYY-MM-DD' */
  birth_date?: string | null;
  fields?: Record<string, string | null>;
}

export interface Client {
  id: number;
  external_id: string;
  name: string;
  phone: string;
  email: string;
  company: string;
  first_visit_date: string | null;
  first_order_date: string | null;
  last_order_date: string | null;
  birth_date: string | null;
  order_count: number;
  revenue: number;
  profit: number;
  comment: string | null;
  client_url: string;
  first_visit_marker: string | null;
  first_visit_marker_alias: string;
  first_visit_marker_icon: string;
  first_visit_marker_alias_level_1: string;
}

export interface ClientListRequest extends Paging {
  filters?: AndOrTripleFilters;
}

export interface ClientListResponse extends StatusResponse {
  clients: Client[];
  total: number;
}

// ---- client feed ---------------------------------------------------------------

export type CallStatus =
  | 'ACTIVE'
  | 'ANSWER'
  | 'BUSY'
  | 'NOANSWER'
  | 'CANCEL'
  | 'CONGESTION'
  | 'CHANUNAVAIL'
  | 'DONTCALL'
  | 'TORTURE';

export interface FeedDevice {
  os: string;
  os_icon: string;
  agent: string;
  agent_icon: string;
  is_mobile: boolean;
}

export type ClientFeedItem =
  | { type: 'visit'; visitId: string; creationDate: string; sourceId: string; device: FeedDevice; sourceTitle: string; sourceIcon: string }
  | {
      type: 'order';
      id: string;
      name: string;
      status: string;
      statusType: StatusType;
      statusTitle: string;
      revenue: number;
      formattedRevenue: string;
      cost: number;
      formattedCost: string;
      fields: Record<string, unknown>;
      creationDate: string;
      updateDate: string | null;
    }
  | { type: 'event'; metaId: string; creationDate: string; name: string }
  | { type: 'lead_hunter_appearance'; date: string; page: string }
  | { type: 'lead_hunter_caught'; date: string; page: string; name: string; field: string; status: '1' | '0' }
  | { type: 'orderStatusChange'; order_id: string; order_title: string; status: string; statusType: StatusType; statusTitle: string; date: string }
  | { type: 'orderCostChange'; order_id: string; order_title: string; cost: number; formattedCost: string; date: string }
  | { type: 'orderPriceChange'; order_id: string; order_title: string; price: number; formattedPrice: string; date: string }
  | { type: 'call'; callee: string; caller: string; duration: string; status: CallStatus; date: string; file_url: string };

export interface ClientFeedResponse extends StatusResponse {
  feed: ClientFeedItem[];
}

// ---- e-mail campaigns ------------------------------------------------------------

export type RecipientStatus = 'sent' | 'delivered' | 'opened' | 'click' | 'unsubscribe' | 'spam';

export interface CampaignContactListRequest {
  metric_ids: RecipientStatus[];
  campaign_ids: number[];
}

export interface CampaignRecipient {
  contact: string;
  metrics: Partial<Record<RecipientStatus, number>>;
}

export interface CampaignContactListResponse extends StatusResponse {
  data: CampaignRecipient[];
  count: number;
  total_count: number;
}

/** Filters on `id`, `title`, `status_id`. */
export interface CampaignListRequest extends Paging {
  filters?: TripleFilters;
}

export interface Campaign {
  id: number;
  title: string;
  status_id: string;
  /** Further fields: not shown in the spec. */
  [field: string]: unknown;
}

/** The rest of the response is not shown in the spec. */
export interface CampaignListResponse {
  data: Campaign[];
  [field: string]: unknown;
}
