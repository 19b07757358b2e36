import type { CustomEvent } from '../../../connectors/canonical';
import { isOutcomeUnknown } from '../../../tracker/tracker-error';
import type { EventBulkSendItem } from '../../../tracker/types/events.types';
import { eventsMapping } from '../../mappings/events';
import { uncertainReason } from './per-record';
import type { StreamHandler } from './stream-handler';

/**
 * Sent in bulk. The service's event log cannot tell a trigger from a repeated one, so a batch whose bulk send
 * may have landed (timed out) is reported uncertain, never sent twice.
 */
export const eventsHandler: StreamHandler<CustomEvent, EventBulkSendItem> = {
  ...eventsMapping,
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
