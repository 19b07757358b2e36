/** Document kind and shapes of leads without a CRM (Resources: "Lead"). */
export const LEAD_KIND = 'lead';

/** Lead statuses without a CRM (States and transitions): fixed ids 0, 1, 2. */
export const LEAD_STATUSES = [
  { id: '0', name: 'In progress', type: 'progress' },
  { id: '1', name: 'Paid', type: 'paid' },
  { id: '2', name: 'Canceled', type: 'canceled' },
] as const;
export type LeadStatusId = (typeof LEAD_STATUSES)[number]['id'];

export interface LeadDoc {
  title: string;
  /** `YYYY-MM-DDTHH:MM:SS+0000` */
  creation_date: string;
  paid_date: string;
  status: LeadStatusId;
  price: number;
  name: string;
  phone: string;
  email: string;
  /** value of the `tracker` field (visit id) */
  source: string;
  text: string;
}

export const LEAD_FILTER_FIELDS = [
  'creation_date', 'email', 'id', 'name', 'paid_date', 'phone', 'price', 'status', 'source', 'title',
] as const;
export const LEAD_SORT_FIELDS = ['creation_date', 'id', 'paid_date', 'price', 'source', 'status'] as const;
