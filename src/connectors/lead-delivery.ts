/**
 * Lead delivery's errors (outbound flow `leads`, src/engine/outbound/flows/leads/). The CRM side of lead delivery
 * is the connector's CRM actions (crm-actions.ts) the flow names: the generic CRM serves them from
 * `settings.lead_delivery.requests`. A create whose outcome is unknown throws UnknownOutcomeError from any flow's
 * action.
 */

/** A CRM's answer refusing one lead (a 4xx that is not about the credentials): the lead is rejected with it, the pass goes on. */
export class LeadRefusedError extends Error {
  constructor(message: string, readonly field = 'lead_delivery') {
    super(message);
    this.name = 'LeadRefusedError';
  }
}

/** A create sent without an answer (timeout, dropped connection, 5xx): it may have landed; look it up before sending it again. */
export class UnknownOutcomeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownOutcomeError';
  }
}
