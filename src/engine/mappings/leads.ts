import type { Lead } from '../../connectors/canonical';
import { checkLead } from '../../tracker/payload-checks';
import { formatTrackerDate } from '../../tracker/tracker-date';
import type { LeadCreateRequest, LeadStatusId } from '../../tracker/types/leads.types';
import { leadLanded } from '../pipeline/sending/landed-checks';
import { finiteNumber, instant } from './mapping-error';
import { sendEach } from '../pipeline/sending/per-record';
import type { StreamHandler } from '../pipeline/sending/stream-handler';

/** Bump when a change of the mapping or checks changes what is sent: every lead is sent again once. */
export const LEAD_MAPPING_VERSION = 1;

/**
 * Created only: updating a lead needs the service's lead id, which the store does not keep yet (a changed lead
 * is logged and skipped). A create call that may have landed is looked up (landed-checks.ts) and sent again
 * only when absent.
 */
export const leadsHandler: StreamHandler<Lead, LeadCreateRequest> = {
  stream: 'leads',
  mappingVersion: LEAD_MAPPING_VERSION,
  toPayload: leadToCreateRequest,
  check: (l) => checkLead(l),
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

export function leadToCreateRequest(l: Lead): LeadCreateRequest {
  const out: LeadCreateRequest = {
    creation_date: instant(l.created_at, 'created_at', formatTrackerDate),
    name: l.name,
    title: l.title,
    status: l.status as LeadStatusId,
  };
  if (l.email) out.email = l.email;
  if (l.phone) out.phone = l.phone;
  const price = finiteNumber(l.price, 'price');
  if (price !== undefined) out.price = price;
  if (l.paid_at) out.paid_date = instant(l.paid_at, 'paid_at', formatTrackerDate);
  return out;
}
