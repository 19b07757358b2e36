import { SeedContext } from '../common/seed-context';
import { daysAgo, formatUtcTimestamp } from '../common/service-time';
import { EVENT_KIND, EVENT_LOG_KIND, EventDefinitionDoc, EventLogDoc } from './event.types';

const DEFINITIONS: EventDefinitionDoc[] = [
  { display_name: 'Add to cart', type: 'js', parameter: 'add_to_cart', is_archived: 0 },
  { display_name: 'Thank-you page', type: 'url', parameter: 'https://shop.example/thank-you', is_archived: 0 },
  { display_name: 'Old promo click', type: 'js', parameter: 'promo_click', is_archived: 1 },
];

/** Three event definitions (one archived) and their triggers on demo visits. */
export async function seedEvents({ store, project, now, visitId }: SeedContext): Promise<void> {
  const stored = [];
  for (const definition of DEFINITIONS) stored.push(await store.insert(project, EVENT_KIND, definition));
  for (let index = 0; index < 6; index += 1) {
    const event = stored[index % 2];
    const entry: EventLogDoc = {
      display_name: event.display_name, parameter: event.parameter, type: event.type,
      event_date: formatUtcTimestamp(daysAgo(now, 1 + index * 5, 16)),
      data: index % 2 ? null : { cart_value: String(1500 + index * 100) }, visit_id: visitId(1996 - index * 3), event_id: event.id,
    };
    await store.insert(project, EVENT_LOG_KIND, entry);
  }
}
