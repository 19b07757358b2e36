import { AndOrTripleFilters } from '../filters';
import { Period, StatusResponse } from './common.types';

export interface BillingTransaction {
  date: string;
  /** charge: withdrawal, topup: deposit. */
  type: 'charge' | 'topup';
  system_name: string | null;
  display_name: string | null;
  project_id: number | null;
  sum: number;
  /** Money balance after the transaction. */
  balance: number;
  /** Bonus balance after the transaction. */
  virtual_balance: number;
}

export interface BillingTransactionListRequest {
  period: Period;
  filters?: AndOrTripleFilters;
}

export interface BillingTransactionListResponse extends StatusResponse {
  data: BillingTransaction[];
}
