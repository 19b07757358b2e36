/** Document kinds of the channels-and-expenses section. */
export const CHANNEL_KIND = 'channel';
export const EXPENSE_KIND = 'expense';

/** Marketing channel (Resources: "Marketing channel and expense"). */
export interface ChannelDoc {
  name: string;
  system_name: string;
  icon: string;
}

/** What is stored for one expense; both answer shapes are built from it. */
export interface ExpenseDoc {
  source: string;
  name: string;
  from_date: string;
  to_date: string;
  timezone: string;
  marketing_cost: number;
  comment: string | null;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) */
  create_date: string;
  update_date: string;
}

/** Expense in the expense list. */
export interface ExpenseListItem {
  id: string;
  source: string;
  name: string;
  from_date: string;
  to_date: string;
  timezone: string;
  marketing_cost: number;
}

/** Expense returned by add. */
export interface AddedExpense {
  id: string;
  date_from: string;
  date_to: string;
  timezone: string;
  marker: string;
  title: string;
  comment: string | null;
  cost: number;
  create_date: string;
  update_date: string;
}
