import { ObjectFilters } from '../filters';
import { Paging, Period, SortDirection, StatusResponse } from './common.types';

/** Lead status ids: '0' progress, '1' paid, '2' canceled. */
export type LeadStatusId = '0' | '1' | '2';

export interface Lead {
  id: string;
  title: string;
  creation_date: string;
  paid_date: string;
  /** Status id. */
  status: string;
  /** A string in the field table, a number in the responses. */
  price: string | number;
  name: string;
  phone: string;
  email: string;
  /** Value of the `tracker` field. */
  source: string;
  /** Comment. */
  text: string;
}

export interface LeadStatus {
  id: string;
  name: string;
  type: 'progress' | 'paid' | 'canceled';
}

export type LeadSortField = 'creation_date' | 'id' | 'paid_date' | 'price' | 'source' | 'status';

export interface LeadListRequest extends Paging {
  period: Period;
  /** Fields creation_date, email, id, name, paid_date, phone, price, status, source, title. */
  filters?: ObjectFilters;
  sort_field: LeadSortField;
  sort_order?: SortDirection;
}

export interface LeadListResponse extends StatusResponse {
  leads: Lead[];
  total: number;
}

export interface LeadStatusListResponse extends StatusResponse {
  data: LeadStatus[];
  total: number;
}

export interface LeadCreateRequest {
  creation_date: string;
  name: string;
  status: LeadStatusId;
  title: string;
  email?: string;
  paid_date?: string;
  phone?: string;
  price?: number;
  source?: string;
}

export interface LeadCreateResponse extends StatusResponse {
  lead_id: string;
}

/** Only the fields to change are sent. */
export interface LeadUpdateRequest {
  id: string;
  creation_date?: string;
  email?: string;
  name?: string;
  paid_date?: string;
  phone?: string;
  price?: number;
  source?: string;
  status?: LeadStatusId;
  text?: string;
  title?: string;
}
