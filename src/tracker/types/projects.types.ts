import { StatusResponse } from './common.types';

/** 'BYR' is outdated but listed. */
export const CURRENCIES = ['RUB', 'USD', 'EUR', 'UAH', 'KZT', 'BYN', 'BYR', 'CHF', 'GBP', 'CZK', 'AED'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface Project {
  id: number;
  name: string;
  /** Profit share in project revenue. */
  profit: string | null;
  /** 'YYYY-MM-DD HH:MM:SS' */
  creation_date: string;
  currency: string;
  is_owner: 0 | 1;
}

export interface ProjectListResponse extends StatusResponse {
  projects: Project[];
}

export interface ProjectCreateRequest {
  name: string;
  currency: Currency;
}

/** No `status` in this answer. */
export interface ProjectCreateResponse {
  data: { project_id: number; counter: { id: string; code: string } };
}

export interface TrackingCode {
  id: string;
  /** JavaScript snippet. */
  code: string;
}

/** No `status` in this answer. */
export interface TrackingCodeListResponse {
  data: TrackingCode[];
}
