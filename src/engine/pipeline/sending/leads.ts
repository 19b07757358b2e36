import type { Lead } from '../../../connectors/canonical';
import type { LeadCreateRequest } from '../../../tracker/types/leads.types';
import { leadsMapping } from '../../mappings/leads';
import { leadLanded } from './landed-checks';
import { sendEach } from './per-record';
import type { StreamHandler } from './stream-handler';

/**
 * Created only: updating a lead needs the service's lead id, which the store does not keep yet (a changed lead
 * is logged and skipped). A create call that may have landed is looked up (landed-checks.ts) and sent again
 * only when absent.
 */
export const leadsHandler: StreamHandler<Lead, LeadCreateRequest> = {
  ...leadsMapping,
  concurrent: false,
  send: (ctx, items) =>
    sendEach(
      items,
      async (item) => {
        if (item.known && !ctx.retry) {
          ctx.log(`leads: ${item.externalId} changed, but updating a lead needs the service's lead id (not kept yet); skipped`);
          return;
        }
        await ctx.tracker.leads.create(item.payload);
      },
      { landed: ({ payload }) => leadLanded(ctx.tracker, payload) },
    ),
};
