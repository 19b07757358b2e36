import type { ConnectorDefinition, WriteContext, WriteOutcome } from '../../../../connectors/connector-definition';
import { LeadRefusedError } from '../../../../connectors/lead-delivery';
import type { FlowCounters } from '../../../../runs/outbound-flows';
import type { LeadDeliveryRow } from '../../../../store/records';
import { LEADS_STREAM, LeadDeliveryStore } from '../../../../store/repositories/lead-delivery.store';
import { formatPlainDate, formatProxyLeadPeriod } from '../../../../tracker/tracker-date';
import type { ProxyLead } from '../../../../tracker/types/proxy-leads.types';
import { lookupSettled, sendOnce } from '../../create-once';
import type { FlowPass, OutboundFlow, PlannedWrite } from '../../outbound-flow';
import { decide, findContact, LeadDecision, PassContacts } from './lead-decision';
import { LEAD_ACTIONS, LeadCrm, named } from './lead-crm';
import { LeadDeliveryPlan, leadDeliveryPlan } from './lead-settings';
import { emailKey, isNoteOfLead, leadDay, leadNote, phoneKey, renderLeadTemplate } from './lead-values';

/** A dry run's line: the lead and the deal or note it would make. */
export interface LeadPreviewLine {
  lead: string;
  /** the proxy lead's own title */
  title: string;
  action: 'create_deal' | 'note' | 'already_delivered';
  /** the deal it would create: its title, pipeline, stage, responsible, fields; or the deal the note would go on */
  deal: { id?: string; title?: string; pipeline?: string; stage?: string; responsible?: string | null; fields?: Record<string, string> };
  contact: string;
  note?: string;
}

export interface LeadsPreview {
  connectionId: string;
  counters: FlowCounters<'leads'>;
  leads: LeadPreviewLine[];
}

/** What the runner hands to `write`: the lead and its day. */
interface LeadWrite {
  lead: ProxyLead;
  day: string;
}

type LeadsPass = FlowPass<LeadDeliveryPlan> & { crm?: Promise<LeadCrm>; contacts?: PassContacts };

/**
 * Lead delivery, the second outbound flow: the service's proxy leads of the days not yet complete (one list
 * request a pass) become CRM deals, one deal per lead ever. Before a create is sent the lead is stored `pending`;
 * a pending lead (its create may have landed: a crash, a timeout) is first looked up in the CRM by lead_id_field,
 * and a pending note on its deal by the proxy lead id in the note's text (when the connector can look notes up).
 * A lead with order_id set is the service's already. See README "Leads into the CRM".
 */
export const leadsFlow: OutboundFlow<LeadDeliveryPlan, ProxyLead, LeadWrite, Promise<LeadsPreview>> = {
  name: 'leads',
  stream: LEADS_STREAM,
  settingsKey: 'lead_delivery',
  repository: 'leads',
  actions: LEAD_ACTIONS,
  counting: { unchanged: 'already_delivered', written: 'created', rejected: 'rejected' },

  planOf(definition: ConnectorDefinition, settings: object): LeadDeliveryPlan | null {
    return leadDeliveryPlan(definition.actions, settings);
  },

  noPlan(connectionId: string, definition: ConnectorDefinition): string {
    return definition.actions
      ? `connection ${connectionId}: settings.lead_delivery is not set: no proxy leads are delivered`
      : `connection ${connectionId}: connector ${definition.name} cannot deliver leads into its CRM`;
  },

  notConfigured(connectionId: string): string {
    return `connection ${connectionId} delivers no leads: its connector has no lead delivery or settings.lead_delivery is not set`;
  },

  /** One request a pass: the proxy leads from the first day not yet complete to today (UTC days, as the service keeps them). */
  async *read(pass: LeadsPass): AsyncGenerator<ProxyLead[]> {
    const today = formatPlainDate(pass.now);
    const stored = await leadStore(pass).windowStart(pass.connectionId);
    let from = stored ?? pass.plan.since ?? today;
    if (pass.plan.since && pass.plan.since > from) from = pass.plan.since;
    if (from > today) from = today;
    const period = formatProxyLeadPeriod(new Date(`${from}T00:00:00Z`), pass.now);
    const answer = await pass.tracker.proxyLeads.list(period).catch((error: unknown) => {
      throw new Error(`connection ${pass.connectionId}: the service's proxy-lead list (period ${period}) failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    const leads = [...(answer.ProxyLeads ?? [])]
      .filter((lead) => leadDay(lead) >= from)
      .sort((a, b) => (a.creation_date < b.creation_date ? -1 : a.creation_date > b.creation_date ? 1 : Number(a.id) - Number(b.id)));
    pass.counters.found += leads.length;
    if (leads.length) yield leads;
    if (pass.signal?.aborted || pass.runId === null || pass.runId === undefined) return;
    // every lead before the first day with one still to deliver is handled: later passes start there
    const done = await leadStore(pass).of(pass.connectionId, leads.map((l) => String(l.id)));
    const open = leads.filter((l) => !hasOrder(l) && !isDelivered(done.get(String(l.id))?.state)).map(leadDay).sort();
    await leadStore(pass).completeBefore(pass.connectionId, open[0] && open[0] < today ? open[0] : today);
  },

  /** Every lead without order_id: the runner leaves those delivered earlier alone (knownDone). No fingerprint: a lead is delivered once, whatever changes in the service afterwards. */
  async planItems(leads: ProxyLead[], pass: LeadsPass): Promise<PlannedWrite<LeadWrite>[]> {
    const withoutOrder = leads.filter((lead) => !hasOrder(lead));
    pass.counters.already_delivered += leads.length - withoutOrder.length;
    return withoutOrder.map((lead) => ({ id: String(lead.id), write: { lead, day: leadDay(lead) }, fingerprint: '' }));
  },

  /** The leads with a delivered `lead_delivery` row: the one record of a delivery (no record_state fingerprint). */
  async knownDone(ids: string[], pass: LeadsPass): Promise<Set<string>> {
    const rows = await leadStore(pass).of(pass.connectionId, ids);
    return new Set([...rows.values()].filter((row) => isDelivered(row.state)).map((row) => row.lead_id));
  },

  async *write(writes: LeadWrite[], pass: LeadsPass, context: WriteContext): AsyncGenerator<WriteOutcome[]> {
    pass.contacts ??= new Map();
    for (const { lead, day } of writes) {
      if (pass.signal?.aborted) return;
      try {
        yield [await deliver(lead, day, pass, context)];
      } catch (error) {
        if (!(error instanceof LeadRefusedError)) throw error;
        if (pass.runId !== null && pass.runId !== undefined) await leadStore(pass).refused(pass.connectionId, String(lead.id), pass.runId, error.field, error.message);
        yield [{ id: String(lead.id), status: 'rejected', reason: error.message, field: error.field }];
      }
    }
  },

  writtenCounter(outcome): string {
    return (outcome as { counter?: string }).counter ?? 'created';
  },

  /** The pipeline, stage, responsible user and every field, resolved against the CRM as a pass does. */
  async check(plan, definition, context): Promise<string> {
    const { pipeline, stage, responsible, leadIdField } = (await openLeadCrm(definition, plan, context)).targets;
    return `lead_delivery: pipeline ${named(pipeline)}, stage ${named(stage)}${responsible ? `, responsible ${named(responsible)}` : ''}, lead_id_field ${leadIdField}`;
  },

  refusal(outcome) {
    return { field: outcome.field ?? 'lead_delivery', reason: `proxy lead ${outcome.id}: ${outcome.reason}` };
  },

  async preview(planned: PlannedWrite<LeadWrite>[], pass: LeadsPass): Promise<LeadsPreview> {
    const lines: LeadPreviewLine[] = [];
    const contacts: PassContacts = new Map();
    /** contact key → the lead of this pass whose deal would make the contact */
    const newContacts = new Map<string, string>();
    const rows = await leadStore(pass).of(pass.connectionId, planned.map((p) => p.id));
    const crm = planned.length ? await openCrm(pass, { connectionId: pass.connectionId, settings: pass.settings, logger: pass.logger, signal: pass.signal, workDir: pass.workDir, secrets: pass.secrets, session: pass.session }) : null;
    for (const { write: { lead } } of planned) {
      const row = rows.get(String(lead.id));
      const title = renderLeadTemplate(pass.plan.title, lead) || `Proxy lead ${lead.id}`;
      const leadTitle = lead.title ?? '';
      if (isDelivered(row?.state)) {
        lines.push({ lead: String(lead.id), title: leadTitle, action: 'already_delivered', deal: { id: row!.deal_id ?? undefined }, contact: row!.contact_id ?? '' });
        continue;
      }
      const decision = await decide(lead, crm!, pass.plan, contacts, pass.now);
      // a contact an earlier lead of this pass would make: that lead's, named by it (not by this lead's name)
      const madeEarlier = decision.contact || !decision.contactKey ? undefined : newContacts.get(decision.contactKey);
      const contact = decision.contact ? `contact ${decision.contact.id}`
        : madeEarlier ? `the new contact of lead ${madeEarlier}`
          : lead.phone || lead.email ? `new contact ${[lead.name, lead.phone, lead.email].filter(Boolean).join(', ')}` : 'no contact';
      if (!decision.contact && decision.contactKey && !madeEarlier) newContacts.set(decision.contactKey, String(lead.id));
      if (decision.action === 'note') {
        lines.push({ lead: String(lead.id), title: leadTitle, action: 'note', deal: { id: decision.dealId }, contact, note: leadNote(lead) });
        continue;
      }
      const { pipeline, stage, responsible } = crm!.targets;
      lines.push({
        lead: String(lead.id), title: leadTitle, action: 'create_deal', contact,
        deal: { title, pipeline: pipeline.name || pipeline.id, stage: stage.name || stage.id, responsible: responsible?.name ?? null, fields: dealFields(lead, pass.plan) },
      });
      if (decision.contactKey && pass.plan.duplicates === 'attach') contacts.set(decision.contactKey, { contactId: decision.contact?.id ?? null, dealId: `(new deal of lead ${lead.id})` });
    }
    return { connectionId: pass.connectionId, counters: pass.counters as FlowCounters<'leads'>, leads: lines };
  },
};

/** One lead: its deal or its note, exactly once. */
async function deliver(lead: ProxyLead, day: string, pass: LeadsPass, context: WriteContext): Promise<WriteOutcome> {
  const id = String(lead.id);
  const store = leadStore(pass);
  const runId = pass.runId ?? null;
  const row = (await store.of(pass.connectionId, [id])).get(id);
  if (isDelivered(row?.state)) return written(id, 'already_delivered', row!.deal_id);
  const crm = await openCrm(pass, context);

  if (row?.state === 'pending') {
    if (row.attempt === 'note') return noteAgain(lead, day, row, crm, pass);
    // a create sent before (a crash, a failed pass) may have landed: looked up once the CRM can show it
    const attemptedAt = Date.parse(row.attempted_at);
    await lookupSettled(pass, row.attempt === 'contact' ? 'a contact' : 'a deal', attemptedAt, attemptedAt, { lagMs: crm.lookupLagMs, settleMs: pass.plan.settleMs });
    // a pending contact create: no deal was sent yet; decide() below searches the contacts again
    const [existing] = row.attempt === 'contact' ? [] : await crm.findDeals(id);
    if (existing) {
      pass.logger.log(`proxy lead ${id}: its earlier create landed (deal ${existing}, found by lead_id_field): not created again`);
      await store.delivered(pass.connectionId, id, day, { state: 'created', dealId: existing, contactId: row.contact_id }, runId);
      remember(pass, lead, row.contact_id, existing);
      return written(id, 'created', existing);
    }
  }

  const decision: LeadDecision = await decide(lead, crm, pass.plan, pass.contacts!, pass.now);
  if (decision.action === 'note') {
    await store.pending(pass.connectionId, id, day, 'note', runId, decision.contact?.id ?? null, decision.dealId);
    const noteId = await noteOnce(crm, lead, decision.dealId, pass);
    await store.delivered(pass.connectionId, id, day, { state: 'attached', dealId: decision.dealId, contactId: decision.contact?.id ?? null, noteId }, runId);
    return written(id, 'attached', decision.dealId);
  }

  let contactId = decision.contact?.id ?? null;
  if (!contactId && (lead.phone || lead.email)) {
    // stored pending first: a crash or a failed pass while the contact create is out is looked up, not sent again
    await store.pending(pass.connectionId, id, day, 'contact', runId, null);
    contactId = await contactOnce(crm, lead, decision, pass);
  }
  await store.pending(pass.connectionId, id, day, 'deal', runId, contactId);
  const dealId = await createOnce(crm, lead, pass, contactId);
  await store.delivered(pass.connectionId, id, day, { state: 'created', dealId, contactId }, runId);
  remember(pass, lead, contactId, dealId);
  return written(id, 'created', dealId);
}

/**
 * A lead whose note was sent before with no answer (a timeout, a dropped connection, a crash before the outcome
 * was stored): looked up on its deal first; found, it is delivered; not found, sent again (to the same deal).
 * A look-up that fails fails the pass and the lead stays pending, as a deal's does. A CRM that cannot look notes
 * up never gets the note twice: the lead counts as attached, with a warning.
 */
async function noteAgain(lead: ProxyLead, day: string, row: LeadDeliveryRow, crm: LeadCrm, pass: LeadsPass): Promise<WriteOutcome> {
  const id = String(lead.id);
  const store = leadStore(pass);
  const runId = pass.runId ?? null;
  const dealId = row.deal_id ?? '';
  if (!crm.findsNotes) {
    pass.logger.warn(`proxy lead ${id}: a note on deal ${dealId} was sent before and its outcome is unknown; the CRM's connector cannot look notes up: not sent again`);
    await store.delivered(pass.connectionId, id, day, { state: 'attached', dealId, contactId: row.contact_id }, runId);
    return written(id, 'attached', dealId);
  }
  const attemptedAt = Date.parse(row.attempted_at);
  await lookupSettled(pass, 'a note', attemptedAt, attemptedAt, { lagMs: 0, settleMs: pass.plan.settleMs });
  const landed = await findNote(crm, dealId, lead);
  if (landed) {
    pass.logger.log(`proxy lead ${id}: its earlier note landed (note ${landed} on deal ${dealId}): not sent again`);
    await store.delivered(pass.connectionId, id, day, { state: 'attached', dealId, contactId: row.contact_id, noteId: landed }, runId);
    return written(id, 'attached', dealId);
  }
  pass.logger.log(`proxy lead ${id}: its earlier note is not on deal ${dealId}: sent again`);
  await store.pending(pass.connectionId, id, day, 'note', runId, row.contact_id, dealId);
  const noteId = await noteOnce(crm, lead, dealId, pass);
  await store.delivered(pass.connectionId, id, day, { state: 'attached', dealId, contactId: row.contact_id, noteId }, runId);
  return written(id, 'attached', dealId);
}

/** The note, sent again only when the deal does not have it (looked up by the proxy lead id in its text). */
function noteOnce(crm: LeadCrm, lead: ProxyLead, dealId: string, pass: LeadsPass): Promise<string> {
  // without a look-up the lead stays pending: the next pass counts it attached rather than risk a second note
  // (notes are listed from the deal, not from a search index: no look-up lag, only the settle time)
  const lookUp = crm.findsNotes
    ? async (sentAt: number, outcomeAt: number) => {
      await lookupSettled(pass, 'a note', sentAt, outcomeAt, { lagMs: 0, settleMs: pass.plan.settleMs });
      return findNote(crm, dealId, lead);
    }
    : null;
  return sendOnce(pass, `proxy lead ${lead.id}: the note on deal ${dealId}`, () => crm.addNote(dealId, leadNote(lead)), lookUp);
}

/** The id of the lead's note on the deal, or null: the note whose text names the proxy lead. */
async function findNote(crm: LeadCrm, dealId: string, lead: ProxyLead): Promise<string | null> {
  const id = String(lead.id);
  const notes = await crm.findNotes(dealId, { leadId: id, text: leadNote(lead) });
  const mine = notes.find((note) => note.text === undefined || isNoteOfLead(note.text, id));
  return mine?.id ?? null;
}

/** The create, sent again only when the CRM does not have the deal (looked up by lead_id_field). */
function createOnce(crm: LeadCrm, lead: ProxyLead, pass: LeadsPass, contactId: string | null): Promise<string> {
  const id = String(lead.id);
  const create = () => crm.createDeal({ leadId: id, visitId: String(lead.tracker ?? ''), title: renderLeadTemplate(pass.plan.title, lead) || `Proxy lead ${id}`, fields: dealFields(lead, pass.plan), contactId });
  const lookUp = async (sentAt: number, outcomeAt: number) => {
    await lookupSettled(pass, 'a deal', sentAt, outcomeAt, { lagMs: crm.lookupLagMs, settleMs: pass.plan.settleMs });
    const [landed] = await crm.findDeals(id);
    return landed ?? null;
  };
  return sendOnce(pass, `proxy lead ${id}: the deal create (looked up by lead_id_field)`, create, lookUp);
}

/**
 * The lead's new contact, sent again only when the CRM does not have it: an unknown outcome is looked up the way
 * decide() found none (by phone, then e-mail), once the CRM's search can show a contact made moments ago.
 */
function contactOnce(crm: LeadCrm, lead: ProxyLead, decision: LeadDecision, pass: LeadsPass): Promise<string> {
  const phone = decision.contactKey?.startsWith('phone:') ? decision.contactKey.slice(6) : null;
  const create = () => crm.createContact({ name: lead.name?.trim() || lead.phone || lead.email, phone, email: lead.email?.trim() || null });
  const lookUp = async (sentAt: number, outcomeAt: number) => {
    await lookupSettled(pass, 'a contact', sentAt, outcomeAt, { lagMs: crm.lookupLagMs, settleMs: pass.plan.settleMs });
    const landed = await findContact(crm, phoneKey(lead.phone), emailKey(lead.email));
    return landed?.id ?? null;
  };
  return sendOnce(pass, `proxy lead ${lead.id}: the contact create (looked up by phone or e-mail)`, create, lookUp);
}

function dealFields(lead: ProxyLead, plan: LeadDeliveryPlan): Record<string, string> {
  return Object.fromEntries(Object.entries(plan.fields).map(([field, template]) => [field, renderLeadTemplate(template, lead)]));
}

function remember(pass: LeadsPass, lead: ProxyLead, contactId: string | null, dealId: string): void {
  if (pass.plan.duplicates !== 'attach') return;
  for (const key of contactKeys(lead)) pass.contacts!.set(key, { contactId, dealId });
}

function contactKeys(lead: ProxyLead): string[] {
  // the same keys decide() looks up
  return [phoneKey(lead.phone) && `phone:${phoneKey(lead.phone)}`, emailKey(lead.email) && `email:${emailKey(lead.email)}`].filter((k): k is string => !!k);
}

/** The flow's own repository (its `repository: 'leads'`): each lead's deal, its pending create, the window. */
function leadStore(pass: LeadsPass): LeadDeliveryStore {
  const store = pass.repositories?.leads;
  if (!store) throw new Error(`connection ${pass.connectionId}: lead delivery runs without its repository (leads)`);
  return store;
}

function openCrm(pass: LeadsPass, context: WriteContext): Promise<LeadCrm> {
  // the pipeline, stage, user and fields are resolved against the CRM once a pass, and only when a lead needs it
  pass.crm ??= openLeadCrm(pass.definition, pass.plan, context);
  return pass.crm;
}

/** The connector's lead_delivery actions within the pass's session, the targets resolved against the CRM. */
function openLeadCrm(definition: ConnectorDefinition, plan: LeadDeliveryPlan, context: WriteContext): Promise<LeadCrm> {
  return new LeadCrm(definition.actions!.open('lead_delivery', context), plan, `connection ${context.connectionId}`).resolve();
}

function written(id: string, counter: 'created' | 'attached' | 'already_delivered', dealId: string | null): WriteOutcome {
  return { id, status: 'written', counter, dealId } as WriteOutcome;
}

function isDelivered(state: string | undefined): boolean {
  return state === 'created' || state === 'attached';
}

function hasOrder(lead: ProxyLead): boolean {
  return lead.order_id !== undefined && lead.order_id !== null && String(lead.order_id).trim() !== '' && String(lead.order_id) !== '0';
}
