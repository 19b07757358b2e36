/** Shapes shared by many operations of the specification. */

/** Every successful answer carries `status: 'success'` unless the spec says otherwise. */
export interface StatusResponse {
  status: 'success';
}

export interface ListResponse<T> extends StatusResponse {
  data: T[];
  total: number;
}

export interface Paging {
  limit?: number;
  offset?: number;
}

/** Period bounds in requests: 'YYYY-MM-DDTHH:MM:SS.sssZ' (see formatPeriodBound). */
export interface Period {
  from: string;
  to: string;
}

export type SortDirection = 'asc' | 'desc';
/** `[field, direction]` */
export type SortPair = [field: string, direction: SortDirection];

/** Status groups of orders and leads. */
export type StatusType = 'unused' | 'progress' | 'paid' | 'canceled';
