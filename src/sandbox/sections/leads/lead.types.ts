/** Document kind and stored shape of leads without a CRM (Resources: "Lead"). */
import type { Lead, LeadSortField, LeadStatus, LeadStatusId } from '../../../tracker/types/leads.types';

export type { LeadStatusId };

export const LEAD_KIND = 'lead';

/** Lead statuses without a CRM (States and transitions): fixed ids 0, 1, 2. */
export const LEAD_STATUSES = [
  { id: '0', name: 'In progress', type: 'progress' },
  { id: '1', name: 'Paid', type: 'paid' },
  { id: '2', name: 'Canceled', type: 'canceled' },
] as const satisfies readonly (LeadStatus & { id: LeadStatusId })[];

/** Stored with a known status id and a numeric price (the answers' form). */
export interface LeadDoc extends Omit<Lead, 'id' | 'status' | 'price'> {
  status: LeadStatusId;
  price: number;
}

export const LEAD_FILTER_FIELDS = [
  'creation_date', 'email', 'id', 'name', 'paid_date', 'phone', 'price', 'status', 'source', 'title',
] as const;
export const LEAD_SORT_FIELDS = [
  'creation_date', 'id', 'paid_date', 'price', 'source', 'status',
] as const satisfies readonly LeadSortField[];
