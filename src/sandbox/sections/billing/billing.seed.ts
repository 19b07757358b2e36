import { SeedContext } from '../common/seed-context';
import { daysAgo, formatUtcTimestamp } from '../common/service-time';
import { BILLING_KIND, BillingTransaction } from './billing.types';

/** A top-up, then monthly and daily charges over 90 days; balances follow the sums. */
export async function seedBilling({ store, project, now }: SeedContext): Promise<void> {
  let balance = 0;
  let virtualBalance = 5_000;
  const steps: [number, BillingTransaction['type'], string | null, string | null, number][] = [
    [88, 'topup', null, null, 50_000],
    [85, 'charge', 'tariff', 'Tariff, monthly', -9_900],
    [70, 'charge', 'calltracking_numbers', 'Call tracking numbers', -1_500],
    [60, 'topup', null, null, 20_000],
    [55, 'charge', 'tariff', 'Tariff, monthly', -9_900],
    [40, 'charge', 'speech_analytics', 'Speech analytics minutes', -750],
    [25, 'charge', 'tariff', 'Tariff, monthly', -9_900],
    [10, 'charge', 'calltracking_numbers', 'Call tracking numbers', -1_500],
    [3, 'charge', 'speech_analytics', 'Speech analytics minutes', -300],
  ];
  for (const [days, type, systemName, displayName, sum] of steps) {
    if (type === 'charge' && virtualBalance > 0) virtualBalance -= 1_000;
    balance += sum;
    const transaction: BillingTransaction = {
      date: formatUtcTimestamp(daysAgo(now, days, 6)), type, system_name: systemName, display_name: displayName,
      project_id: type === 'charge' ? project : null, sum, balance, virtual_balance: virtualBalance,
    };
    await store.insert(project, BILLING_KIND, transaction);
  }
}
