/** Document kinds of the channels-and-expenses section; the answers are the service's types. */
import type { AddedExpense, Channel, Expense } from '../../../tracker/types/channels.types';

export type { AddedExpense };

export const CHANNEL_KIND = 'channel';
export const EXPENSE_KIND = 'expense';

/** Marketing channel (Resources: "Marketing channel and expense"), stored as answered. */
export type ChannelDoc = Channel;

/** Expense in the expense list. */
export type ExpenseListItem = Expense;

/** What is stored for one expense; both answer shapes are built from it. */
export interface ExpenseDoc extends Omit<Expense, 'id'> {
  comment: string | null;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) */
  create_date: string;
  update_date: string;
}
