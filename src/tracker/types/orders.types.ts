import { AndOrTripleFilters } from '../filters';
import { Paging, StatusResponse, StatusType } from './common.types';
import { Visit, VisitSummary } from './visits.types';

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

export interface AddOrdersCounters {
  uploaded: number;
  processed: number;
  skipped_by_status: number;
  skipped_by_waiting_visit_info: number;
  skipped_by_internal_error: number;
  skipped_because_not_changed: number;
  skipped_by_invalid_format: number;
  skipped_fields_by_invalid_format: number;
  saved: number;
}

export const ADD_ORDERS_COUNTERS: readonly (keyof AddOrdersCounters)[] = [
  'uploaded',
  'processed',
  'skipped_by_status',
  'skipped_by_waiting_visit_info',
  'skipped_by_internal_error',
  'skipped_because_not_changed',
  'skipped_by_invalid_format',
  'skipped_fields_by_invalid_format',
  'saved',
];

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

/** The spec does not show this body; typically a URL or `{ url }` with a status. */
export type OrderExternalUrlResponse = unknown;
