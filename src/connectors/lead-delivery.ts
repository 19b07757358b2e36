import type { CheckResult, WriteContext } from './connector-definition';

/**
 * Lead delivery, the connector's side (outbound flow `leads`, src/engine/outbound/flows/leads/): the requests
 * that turn one of the service's proxy leads into a CRM deal. The flow decides (which contact, a new deal or a
 * note on an open one, once per lead whatever crashes); the connector only talks to its CRM. A connector offers
 * it as `ConnectorDefinition.leads`; generic-crm builds it from `settings.lead_delivery` (its presets ship the
 * requests).
 */
export interface LeadCapability<S = unknown> {
  /** the connection's lead delivery, or null when its settings configure none */
  plan(settings: S): LeadDeliveryPlan | null;
  /**
   * Reach the CRM, resolve the pipeline, stage, responsible user and every field against it, and hand back what
   * delivers: throws naming the `lead_delivery` key of whatever the CRM does not have.
   */
  open(context: WriteContext<S>): Promise<LeadCrm>;
  /** `check` of the connection: the same resolution, as a message */
  check(settings: S, context: WriteContext<S>): Promise<CheckResult>;
}

/** What the engine needs of a connection's `lead_delivery` settings (the connector reads the rest itself). */
export interface LeadDeliveryPlan {
  /** cron of the flow's passes (default every minute) */
  schedule: string;
  /** first day (YYYY-MM-DD, the service's UTC days) of proxy leads to take; undefined: the day of the first pass */
  since?: string;
  /** deal title template: `{{title}}`, `{{name}}`, any proxy lead field */
  title: string;
  /** more deal fields (id or name as the user wrote them) → templates */
  fields: Record<string, string>;
  /** attach: a contact's open deal in the pipeline gets a note instead of a new deal; create: always a new deal */
  duplicates: 'attach' | 'create';
  /** how far back an open deal of the same contact counts */
  duplicateDays: number;
}

/** A contact the CRM found: its id, and what it holds (when the search answers with them) to check the match. */
export interface FoundContact {
  id: string;
  phones?: string[];
  emails?: string[];
  /** the contact's deal ids, when the search answers with them (amoCRM `with=leads`): contact_deals reads those */
  deals?: string[];
}

/** A deal of a contact, as the duplicate check needs it. */
export interface ContactDeal {
  id: string;
  pipeline: string;
  /** not won and not lost */
  open: boolean;
  createdAt: Date | null;
}

/** The new deal: title and fields already rendered (field names as the user wrote them; the connector maps them). */
export interface NewDeal {
  leadId: string;
  visitId: string;
  title: string;
  fields: Record<string, string>;
  contactId: string | null;
}

/** The CRM as one pass of lead delivery talks to it (resolved targets, then one call per step). */
export interface LeadCrm {
  /** what deals are made with, by the CRM's ids and names (for the dry run and messages) */
  targets: { pipeline: Named; stage: Named; responsible: Named | null; leadIdField: string; visitField: string };
  /**
   * deals whose lead_id_field holds exactly this proxy lead id (the look-up before a create whose outcome is
   * unknown): every page of the CRM's matches, each deal's value compared (a search answers near misses too)
   */
  findDeals(leadId: string): Promise<string[]>;
  /**
   * How long (ms) a created deal may take to show in findDeals (a search index the CRM fills after the write,
   * as HubSpot's search API does); absent or 0: findDeals sees a create at once. A create whose outcome is
   * unknown is looked up only once this long has passed since it was sent: an earlier look-up could miss a deal
   * that landed and create it a second time.
   */
  readonly lookupLagMs?: number;
  /** contacts with this phone (E.164 digits, e.g. 79120001122) or e-mail (lower case) */
  findContacts(query: { phone: string | null; email: string | null }): Promise<FoundContact[]>;
  /** the contact's deals (of any pipeline; the flow filters) */
  contactDeals(contact: FoundContact): Promise<ContactDeal[]>;
  createContact(contact: { name: string; phone: string | null; email: string | null }): Promise<string>;
  /** creates the deal (linked to the contact); its id */
  createDeal(deal: NewDeal): Promise<string>;
  /** a note on a deal; its id */
  addNote(dealId: string, text: string): Promise<string>;
  /**
   * Optional: the deal's notes that may be this lead's (the newest ones, or those the CRM's search matched), for
   * the look-up before a note whose outcome is unknown is sent again. The flow picks the one whose text names the
   * proxy lead (`proxy lead <id>`, HTML or not); a note without `text` counts as the CRM's own match. A connector
   * without it: such a note is never sent again (the lead counts as attached, with a warning).
   */
  findNotes?(dealId: string, lead: { leadId: string; text: string }): Promise<FoundNote[]>;
}

/** A note the CRM holds on a deal: its id and text (as the CRM keeps it: HTML is fine). */
export interface FoundNote {
  id: string;
  text?: string;
}

export interface Named {
  id: string;
  name: string;
}

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
