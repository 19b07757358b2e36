import type { Lead } from '../../connectors/canonical';
import { checkLead } from '../../tracker/payload-checks';
import { formatTrackerDate } from '../../tracker/tracker-date';
import type { LeadCreateRequest, LeadStatusId } from '../../tracker/types/leads.types';
import { finiteNumber, instant } from './mapping-error';
import type { StreamMapping } from './stream-mapping';

/** Bump when a change of the mapping or checks changes what is sent: every lead is sent again once. */
export const LEAD_MAPPING_VERSION = 1;

export const leadsMapping: StreamMapping<Lead, LeadCreateRequest> = {
  stream: 'leads',
  mappingVersion: LEAD_MAPPING_VERSION,
  toPayload: leadToCreateRequest,
  check: (l) => checkLead(l),
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
