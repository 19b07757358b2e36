import { SANDBOX_CHANNELS } from '../../visits/visit-sources';
import { SeedContext } from '../common/seed-context';
import { formatPlainDate, formatPlainDateTime, lastDayOfMonth } from '../common/service-time';
import { CHANNEL_KIND, ChannelDoc, EXPENSE_KIND, ExpenseDoc } from './channel.types';

const ICONS = 'https://icons.sandbox.invalid/channel';
const PAID_CHANNELS = ['google_ads', 'yandex_direct', 'facebook'];

/** The channels of the demo visits, and three months of expenses of the paid ones. */
export async function seedChannels({ store, project, now }: SeedContext): Promise<void> {
  for (const channel of SANDBOX_CHANNELS) {
    const doc: ChannelDoc = { name: channel.display_name, system_name: channel.system_name, icon: `${ICONS}/${channel.system_name}.png` };
    await store.insert(project, CHANNEL_KIND, doc);
  }
  const stamp = formatPlainDateTime(now);
  for (let monthsBack = 2; monthsBack >= 0; monthsBack -= 1) {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
    for (const [index, system] of PAID_CHANNELS.entries()) {
      const channel = SANDBOX_CHANNELS.find((c) => c.system_name === system)!;
      const expense: ExpenseDoc = {
        source: system, name: channel.display_name, from_date: formatPlainDate(first),
        to_date: formatPlainDate(lastDayOfMonth(first)), timezone: 'Europe/Moscow',
        marketing_cost: 50_000 + index * 15_000 + monthsBack * 5_000, comment: null, create_date: stamp, update_date: stamp,
      };
      await store.insert(project, EXPENSE_KIND, expense);
    }
  }
}
