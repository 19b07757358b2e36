/** Document kind of billing transactions (Resources: "Billing transaction"); the shape is the service's type. */
import type { BillingTransaction } from '../../../tracker/types/billing.types';

export type { BillingTransaction };

export const BILLING_KIND = 'billing_transaction';

export const BILLING_FIELDS = [
  'date', 'type', 'system_name', 'display_name', 'project_id', 'sum', 'balance', 'virtual_balance',
] as const satisfies readonly (keyof BillingTransaction)[];
