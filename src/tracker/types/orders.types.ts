import { AndOrTripleFilters } from '../filters';
import { Paging, StatusResponse, StatusType } from './common.types';
import { Visit, VisitSummary } from './visits.types';

// ---- project statuses (outside the specification; shapes from public clients) ------

/** One order status of a project's dictionary: what `status` ids of add-orders must be. */
export interface OrderStatusDefinition {
  id: string;
  name: string;
  type: 'progress' | 'paid' | 'canceled';
}

/** Answer of POST /project/integration/status/list. */
export interface OrderStatusListResponse extends StatusResponse {
  data: OrderStatusDefinition[];
  total: number;
}

// ---- order list -------------------------------------------------------------

export interface OrderStatus {
  /** Unique status number. */
  id: string;
  type: StatusType;
  /** Status name from the CRM. */
  name: string;
}

export interface OrderCustomFields {
  tracker?: number | null;
  status_name?: string;
  [name: string]: string | number | null | undefined;
}

/** Item of the order list. */
export interface Order {
  id: string;
  url: string;
  source_type: string;
  creation_date: string;
  update_date: string | null;
  revenue: number | null;
  cost: number | null;
  /** Present in one form of the response. */
  tracker?: number | null;
  /** Announced to be removed from this response. */
  visit_id?: string | null;
  client_id: string | null;
  /** Present in one form of the response. */
  page?: string | null;
  custom_fields: OrderCustomFields;
  status: OrderStatus;
  /** Filled only when the request's `extend` contains 'visit'. */
  visit: Visit | null;
}

export type OrderListExtend = 'visit';

/** Filterable: `creation_date`, `status` ('0' in work, '1' paid, '2' cancelled). */
export interface OrderListRequest extends Paging {
  filters?: AndOrTripleFilters;
  extend?: OrderListExtend[];
}

export interface OrderListResponse extends StatusResponse {
  data: Order[];
  total: number;
}

// ---- add-orders --------------------------------------------------------------

export interface AddOrderCategory {
  level1?: string;
  level2?: string;
  level3?: string;
  level4?: string;
  level5?: string;
}

export interface AddOrderProduct {
  id: string;
  name: string;
  quantity: number;
  price?: number;
  cost?: number;
  brand?: string;
  variant?: string;
  /** Nesting up to 5 levels. */
  category?: AddOrderCategory;
}

export interface AddOrderHistory {
  date?: string;
  /** May be negative. */
  price?: number | null;
  cost?: number | null;
  status?: string;
}

/** One order of add-orders; all fields optional per the spec. */
export interface AddOrder {
  /** Deal id in the CRM. */
  id?: string;
  name?: string;
  /** UNIX time, or 'YYYY-MM-DD HH:MM:SS' with an offset (we always send '+0000'). */
  date_create?: string;
  /** Status id. */
  status?: string;
  /** Visit id. */
  tracker?: string | null;
  price?: string | null;
  cost?: string | null;
  /** Client id in the CRM. */
  client_id?: string;
  /** At most 1000 symbols per field. */
  fields?: Record<string, string | null>;
  products?: AddOrderProduct[];
  history?: AddOrderHistory[];
}

/**
 * The counters of an add-orders answer, each with what it means for a sync (the status page shows these; the README
 * says what to do about each), in the order the daemon shows them. The daemon's one list of their names: the
 * engine's totals, the run rows' columns, the admin API, the CLI and the status page all take them from here.
 */
export const ADD_ORDERS_COUNTER_MEANINGS = {
  uploaded: 'orders the service accepted for processing',
  processed: 'orders in the requests',
  saved: 'orders the service stored (new or changed)',
  skipped_by_status: 'the status id is not known to the project: check status_map',
  skipped_by_waiting_visit_info:
    'the visit id is not known to the service yet: kept until the visit arrives; check that the site puts the tracker_visit cookie into the deal',
  skipped_by_internal_error: 'the service failed on these orders: they are sent again on the next change',
  skipped_because_not_changed: 'the service already had these orders as sent',
  skipped_by_invalid_format: 'date_create was not readable: listed in the rejected records',
  skipped_fields_by_invalid_format: 'custom fields dropped by the service (over 1000 symbols)',
} as const;

export type AddOrdersCounterName = keyof typeof ADD_ORDERS_COUNTER_MEANINGS;

export type AddOrdersCounters = Record<AddOrdersCounterName, number>;

export const ADD_ORDERS_COUNTERS = Object.keys(ADD_ORDERS_COUNTER_MEANINGS) as readonly AddOrdersCounterName[];

export interface AddOrdersResponse extends AddOrdersCounters, StatusResponse {
  /** Lists e.g. the ids skipped for an invalid `date_create`. */
  comment: string;
}

// ---- order info --------------------------------------------------------------

export type OrderSourceType = 'proxyform' | 'phone' | 'lead_hunter';

export interface OrderDetailOrder {
  id: string;
  title: string;
  /** External CRM address. */
  url: string;
  source: { type: OrderSourceType; icon_url: string; title: string };
  creation_date: string;
  update_date: string | null;
  paid_date: string | null;
  status: 'progress' | 'paid' | 'canceled';
  status_name: string;
  status_original: string;
  price: number;
  cost: number;
  visit_id: string;
  visit: VisitSummary;
  fields_data: Record<string, string>;
  is_multichannel: 0 | 1;
  visits_count: number;
  client_phones: string[];
  client_emails: string[];
  client_name: string;
  client_id: string;
  client_external_id: string;
  is_first: boolean;
  is_first_sale: boolean;
}

export interface OrderDetailProduct {
  id: string;
  name: string;
  price: number;
  cost: number;
  brand: string;
  variant: string | null;
  categories: Array<{ level: string; value: string }>;
  quantity: number;
  fields: unknown[];
}

/** Response of order info. */
export interface OrderDetail extends StatusResponse {
  order: OrderDetailOrder;
  visits: VisitSummary[];
  products: OrderDetailProduct[];
}

/**
 * The spec does not show this body; public clients read `externalUrl` (a PHP SDK's recorded answer
 * OrderExternalUrl.json: `{"externalUrl": "http://….amocrm.ru/leads/detail/123", "status": "success"}`).
 */
export interface OrderExternalUrlResponse extends StatusResponse {
  externalUrl: string;
}
