import type { CustomEvent } from '../../connectors/canonical';
import { isOutcomeUnknown } from '../../tracker/tracker-error';
import type { EventBulkSendItem } from '../../tracker/types/events.types';
import { uncertainReason } from '../pipeline/sending/per-record';
import type { StreamHandler } from '../pipeline/sending/stream-handler';

/** Bump when a change of the mapping or checks changes what is sent: every event is sent again once. */
export const EVENT_MAPPING_VERSION = 1;

/**
 * Sent in bulk. The service's event log cannot tell a trigger from a repeated one, so a batch whose bulk send
 * may have landed (timed out) is reported uncertain, never sent twice.
 */
export const eventsHandler: StreamHandler<CustomEvent, EventBulkSendItem> = {
  stream: 'events',
  mappingVersion: EVENT_MAPPING_VERSION,
  toPayload: eventToBulkItem,
  check: (e) => (e.name ? [] : [{ id: '', field: 'name', reason: 'is required' }]),
  concurrent: true,
  async send(ctx, items) {
    try {
      await ctx.tracker.events.bulkSend(items.map((i) => i.payload));
    } catch (e) {
      if (!isOutcomeUnknown(e)) throw e;
      const reason = uncertainReason(e.message, "the service's event log cannot tell these triggers from repeated ones");
      return { refused: [], uncertain: items.map((i) => ({ externalId: i.externalId, reason })) };
    }
    return { refused: [] };
  },
};

export function eventToBulkItem(e: CustomEvent): EventBulkSendItem {
  const out: EventBulkSendItem = { name: e.name };
  if (e.visit_id) out.visit = String(e.visit_id);
  if (e.data) out.data = { ...e.data };
  return out;
}
