import type { OutboundFlowDescription } from '../../../../runs/outbound-flows';

/** Lead delivery in words: its name, its counters with what each means, its /metrics series. */
export const leadsDescription = {
  name: 'leads',
  title: 'lead delivery',
  about: "The service's proxy leads delivered into the CRM as deals, or as notes on a contact's open deal (`settings.lead_delivery`); a lead the CRM refused stays among the open rejections until delivered.",
  counters: {
    found: "the service's proxy leads of the window (the days not yet complete)",
    created: 'leads that became a new CRM deal (with the visit in visit_field and the lead id in lead_id_field)',
    attached: "leads that went as a note on their contact's open deal (duplicates: attach) instead of a new deal",
    already_delivered: 'leads that have their deal already (delivered earlier, or order_id set by the service): nothing sent',
    rejected: 'leads the CRM refused (each a rejected record with the CRM\'s reason, open until delivered)',
  },
  metric: { name: 'tracker_sync_leads_total', help: 'Proxy leads of lead-delivery runs by connection and outcome (found, created, attached, already_delivered, rejected)' },
} as const satisfies OutboundFlowDescription;
