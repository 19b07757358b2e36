import { ListResponse, StatusResponse } from './common.types';

/** Marketing channel. */
export interface Channel {
  name: string;
  system_name: string;
  icon: string;
}

export type ChannelListResponse = ListResponse<Channel>;

/** Expense in the expense list. */
export interface Expense {
  id: string;
  /** Channel system name. */
  source: string;
  name: string;
  from_date: string;
  to_date: string;
  timezone: string;
  marketing_cost: number;
}

/** The expense list answers a top-level array. */
export type ExpenseListResponse = Expense[];

export interface ExpenseAddRequest {
  /** Channel system name. */
  source: string;
  /** 'YYYY-MM-DD' */
  from_date: string;
  /** 'YYYY-MM-DD' */
  to_date: string;
  timezone?: string;
  marketing_cost: number;
}

/** Expense returned by add. */
export interface AddedExpense {
  id: string;
  /** 'YYYY-MM-DDTHH:MM:SS.sssZ' */
  date_from: string;
  date_to: string;
  timezone: string;
  /** Channel system name. */
  marker: string;
  title: string;
  comment: string | null;
  cost: number;
  /** 'YYYY-MM-DD HH:MM:SS' */
  create_date: string;
  update_date: string;
}

export interface ExpenseAddResponse extends StatusResponse {
  data: AddedExpense;
}

export interface ExpenseUpdateRequest {
  id: number;
  /** New amount. */
  marketing_cost: number;
}
