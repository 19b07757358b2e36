import { SeedContext } from '../common/seed-context';
import { formatPlainDate, lastDayOfMonth } from '../common/service-time';
import { MEDIAPLAN_KIND, MediaPlanDoc } from './mediaplan.types';

/** Targets of this month for the paid channels. */
export async function seedMediaPlans({ store, project, now }: SeedContext): Promise<void> {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const targets = [['google_ads', 120, 240_000], ['yandex_direct', 90, 180_000], ['facebook', 40, 60_000]] as const;
  for (const [channel, leads, cost] of targets) {
    const plan: MediaPlanDoc = {
      channel, date_from: formatPlainDate(first), date_to: formatPlainDate(lastDayOfMonth(first)),
      metrics: [{ name: 'leads', value: leads }, { name: 'marketing_cost', value: cost }, { name: 'cpl', value: Math.round(cost / leads) }],
    };
    await store.insert(project, MEDIAPLAN_KIND, plan);
  }
}
