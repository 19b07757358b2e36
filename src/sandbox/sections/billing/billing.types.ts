/** Document kind and shape of billing transactions (Resources: "Billing transaction"). */
export const BILLING_KIND = 'billing_transaction';

export interface BillingTransaction {
  /** `YYYY-MM-DDTHH:MM:SS+0000` */
  date: string;
  /** `charge` withdrawal, `topup` deposit */
  type: 'charge' | 'topup';
  system_name: string | null;
  display_name: string | null;
  project_id: number | null;
  sum: number;
  /** money balance after the transaction */
  balance: number;
  /** bonus balance after the transaction */
  virtual_balance: number;
}

export const BILLING_FIELDS = [
  'date', 'type', 'system_name', 'display_name', 'project_id', 'sum', 'balance', 'virtual_balance',
] as const;
