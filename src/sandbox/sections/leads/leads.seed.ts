import { SeedContext } from '../common/seed-context';
import { daysAgo, formatPlainDateTime, formatUtcTimestamp } from '../common/service-time';
import { PROXY_LEAD_KIND, ProxyLeadDoc } from '../proxyleads/proxy-lead.types';
import { LEAD_KIND, LeadDoc } from './lead.types';

const NAMES = ['Иван Петров', 'Мария Смирнова', 'Олег Кузнецов', 'Анна Волкова', 'Сергей Попов', 'Елена Новикова'];

/** Leads in all three statuses, and proxy leads from the site's forms, over the last two months. */
export async function seedLeads({ store, project, now, visitId }: SeedContext): Promise<void> {
  for (const [index, name] of NAMES.entries()) {
    const status = String(index % 3) as LeadDoc['status'];
    const created = daysAgo(now, 5 + index * 9, 11);
    const lead: LeadDoc = {
      title: `Заявка №${index + 1}`, creation_date: formatUtcTimestamp(created),
      paid_date: status === '1' ? formatUtcTimestamp(daysAgo(now, 2 + index * 9, 15)) : '', status,
      price: 10_000 + index * 2_500, name, phone: `+7926000000${index}`, email: `lead${index + 1}@mail.example`,
      source: visitId(1900 - index * 13), text: index % 2 ? 'Перезвонить после обеда' : '',
    };
    await store.insert(project, LEAD_KIND, lead);
  }
  for (let index = 0; index < 5; index += 1) {
    const proxyLead: ProxyLeadDoc = {
      title: 'Форма обратного звонка', text: `Прошу перезвонить (${index + 1})`, name: NAMES[index],
      phone: `+7903000000${index}`, email: `form${index + 1}@mail.example`, tracker: visitId(1950 - index * 17),
      creation_date: formatPlainDateTime(daysAgo(now, 1 + index * 7, 14)), order_id: index < 2 ? `crm-${5000 + index}` : '',
    };
    await store.insert(project, PROXY_LEAD_KIND, proxyLead);
  }
}
