import type { CustomEvent } from '../../connectors/canonical';
import type { EventBulkSendItem } from '../../tracker/types/events.types';
import type { StreamMapping } from './stream-mapping';

/** Bump when a change of the mapping or checks changes what is sent: every event is sent again once. */
export const EVENT_MAPPING_VERSION = 1;

export const eventsMapping: StreamMapping<CustomEvent, EventBulkSendItem> = {
  stream: 'events',
  mappingVersion: EVENT_MAPPING_VERSION,
  toPayload: eventToBulkItem,
  check: (e) => (e.name ? [] : [{ id: '', field: 'name', reason: 'is required' }]),
};

export function eventToBulkItem(e: CustomEvent): EventBulkSendItem {
  const out: EventBulkSendItem = { name: e.name };
  if (e.visit_id) out.visit = String(e.visit_id);
  if (e.data) out.data = { ...e.data };
  return out;
}
