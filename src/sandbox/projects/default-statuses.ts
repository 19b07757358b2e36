import type { StatusType } from '../storage/order-status.entity';

/**
 * Order statuses every sandbox project knows: the three group ids of the service ('0' progress,
 * '1' paid, '2' canceled) and CRM-like stage ids mapped to those groups, so that CRM connectors
 * can send their own stage ids. Any other id is answered `skipped_by_status`. A project's statuses start as these;
 * `set-statuses` replaces them (statuses/order-statuses.service.ts).
 */
export const DEFAULT_ORDER_STATUSES: { id: string; name: string; type: Exclude<StatusType, 'unused'> }[] = [
  { id: '0', name: 'In work', type: 'progress' },
  { id: '1', name: 'Paid', type: 'paid' },
  { id: '2', name: 'Canceled', type: 'canceled' },
  { id: 'new', name: 'New', type: 'progress' },
  { id: 'in_work', name: 'In work (CRM)', type: 'progress' },
  { id: 'negotiation', name: 'Negotiation', type: 'progress' },
  { id: 'won', name: 'Won', type: 'paid' },
  { id: 'lost', name: 'Lost', type: 'canceled' },
  { id: '142', name: 'Closed - won', type: 'paid' },
  { id: '143', name: 'Closed - lost', type: 'canceled' },
];

/** Group number of the order list's `status` filter. */
export const STATUS_GROUP_BY_NUMBER: Record<string, StatusType> = { 0: 'progress', 1: 'paid', 2: 'canceled' };
