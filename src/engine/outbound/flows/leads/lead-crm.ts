import { CrmActionRefusedError, CrmActions } from '../../../../connectors/crm-actions';
import { dealFieldKey, dealFieldsOf } from '../../../../connectors/deal-fields';
import { LeadRefusedError, UnknownOutcomeError } from '../../../../connectors/lead-delivery';
import type { LeadDeliveryPlan } from './lead-settings';

/**
 * The CRM actions lead delivery asks for (`lead_delivery.requests.<step>` of the generic CRM), with their variables
 * and what their answer gives:
 *   pipelines      –                                   → [{ id, name, main?, stages?: [{ id, name, refused? }] }]
 *   stages         pipeline                            → [{ id, name, refused? }] (when `pipelines` gives no stages)
 *   users          –                                   → [{ id, name }]
 *   deal_fields    –                                   → [{ key, name }]
 *   find_deals     field (key), value (proxy lead id), pipeline → [{ id, value }] or [id] (read with read_deals)
 *   read_deals     ids (one page of find_deals'), field → [{ id, value }]
 *   find_contacts  phone, phone_local, phone_plus, email → [{ id, phones?, emails?, deals? }]
 *   contact_deals  contact, deal_ids, pipeline, since, since_ms → [{ id, pipeline, open, created }]
 *   create_contact name, phone, email → id;  create_deal title, pipeline, stage, responsible, contact, fields, field_list → id
 *   link_contact   deal, contact;  add_note deal, text, now, now_ms → id
 *   find_notes     deal, lead, text → [{ id, text }] or [id] (read with read_notes);  read_notes ids, deal, lead, text
 */
export const LEAD_ACTIONS = {
  required: ['pipelines', 'users', 'deal_fields', 'find_deals', 'find_contacts', 'contact_deals', 'create_contact', 'create_deal', 'add_note'],
  optional: ['stages', 'read_deals', 'link_contact', 'find_notes', 'read_notes'],
} as const;

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

/** The new deal: title and fields already rendered (field names as the user wrote them). */
export interface NewDeal {
  leadId: string;
  visitId: string;
  title: string;
  fields: Record<string, string>;
  contactId: string | null;
}

/** A note the CRM holds on a deal: its id and text (as the CRM keeps it: HTML is fine; absent: the CRM's own match). */
export interface FoundNote {
  id: string;
  text?: string;
}

export interface Named {
  id: string;
  name: string;
}

/**
 * The CRM as one pass of lead delivery talks to it: the targets resolved once (pipeline, stage, responsible user,
 * fields, each checked against the CRM; errors name the `lead_delivery` key), then one action per step. A create
 * is sent once: the CRM refusing the record is a LeadRefusedError (the lead is rejected, the pass goes on), an
 * answer that may hide a create that landed an UnknownOutcomeError (the flow looks it up before sending it again).
 */
export class LeadCrm {
  targets!: { pipeline: Named; stage: Named; responsible: Named | null; leadIdField: string; visitField: string };
  /** the user's field (id or name) → the CRM's key, for every field a deal is made with */
  private readonly fieldKeys = new Map<string, string>();

  constructor(private readonly actions: CrmActions, private readonly plan: LeadDeliveryPlan, private readonly where: string) {
    const missing = LEAD_ACTIONS.required.filter((name) => !actions.has(name));
    if (missing.length) throw new Error(`${where}: ${this.setting(missing[0])} is missing (missing: ${missing.join(', ')})`);
  }

  /** How long (ms) a created deal or contact may take to show in findDeals / findContacts (lookup_lag_seconds). */
  get lookupLagMs(): number {
    return this.plan.lookupLagMs;
  }

  /** the deal's notes can be looked up (find_notes): a note whose outcome is unknown may be sent again */
  get findsNotes(): boolean {
    return this.actions.has('find_notes');
  }

  /** The pipeline, stage, responsible user and fields, each checked against the CRM (errors name the key). */
  async resolve(): Promise<this> {
    const plan = this.plan;
    const fields = dealFieldsOf(await this.actions.run('deal_fields', {}));
    const fieldKey = (wanted: string, key: string) => {
      try {
        const found = dealFieldKey(fields, wanted, key);
        this.fieldKeys.set(wanted, found);
        return found;
      } catch (error) {
        throw new Error(`${this.where}: ${(error as Error).message}`);
      }
    };
    if (!plan.leadIdField) throw new Error(`${this.where}: lead_delivery.lead_id_field is not set: the deal field that keeps the proxy lead id`);
    const leadIdField = fieldKey(plan.leadIdField, 'lead_delivery.lead_id_field');
    const visitField = fieldKey(plan.visitField, 'visit_field');
    for (const field of Object.keys(plan.fields)) fieldKey(field, `lead_delivery.fields.${field}`);

    const pipelines = asList(await this.actions.run('pipelines', {})).map((p) => {
      const entry = (p ?? {}) as Record<string, unknown>;
      return { id: text(entry.id), name: text(entry.name), main: entry.main === true, stages: entry.stages };
    });
    const pipeline = plan.pipeline === undefined ? pipelines.find((p) => p.main) ?? pipelines[0] : pick(pipelines, plan.pipeline);
    if (!pipeline) throw new Error(`${this.where}: lead_delivery.pipeline: the CRM has no pipeline ${plan.pipeline === undefined ? '(none at all)' : `"${plan.pipeline}"`} (its pipelines: ${list(pipelines)})`);
    const stageList = pipeline.stages !== undefined && pipeline.stages !== null
      ? asList(pipeline.stages)
      : this.actions.has('stages') ? asList(await this.actions.run('stages', { pipeline: pipeline.id })) : [];
    const stages = stageList.map((s) => {
      const entry = (s ?? {}) as Record<string, unknown>;
      return { id: text(entry.id), name: text(entry.name), refused: text(entry.refused) };
    });
    // a stage the CRM takes no new deal in (amoCRM's unsorted one) is its pipeline's, but never the default
    const open = stages.filter((s) => !s.refused);
    const found = plan.stage === undefined ? open[0] : pick(stages, plan.stage);
    if (!found) throw new Error(`${this.where}: lead_delivery.stage: pipeline ${named(pipeline)} has no stage ${plan.stage === undefined ? 'a deal can be created in' : `"${plan.stage}"`} (its stages: ${list(stages)})`);
    if (found.refused) throw new Error(`${this.where}: lead_delivery.stage: stage ${named(found)} of pipeline ${named(pipeline)} takes no new deals: ${found.refused} (stages it takes them in: ${list(open)})`);
    let responsible: Named | null = null;
    if (plan.responsible !== undefined) {
      const users = (await this.usersList()).map((u) => {
        const entry = (u ?? {}) as Record<string, unknown>;
        return { id: text(entry.id), name: text(entry.name) };
      });
      responsible = pick(users, plan.responsible) ?? null;
      if (!responsible) throw new Error(`${this.where}: lead_delivery.responsible: the CRM has no user "${plan.responsible}" (its users: ${list(users)})`);
    }
    this.targets = { pipeline: { id: pipeline.id, name: pipeline.name }, stage: { id: found.id, name: found.name }, responsible, leadIdField, visitField };
    return this;
  }

  /** The users, for `responsible`: a CRM that lists them only to some users (amoCRM: administrators) says so, not "credentials". */
  private async usersList(): Promise<unknown[]> {
    try {
      // every page of the CRM's users: the responsible one may be on any
      return asList(await this.actions.run('users', {}));
    } catch (error) {
      // the connector's error of an answer carries its HTTP status (and the request's place, the generic CRM's `where`)
      const { status, where } = error as { status?: unknown; where?: unknown };
      if (status !== 403) throw error;
      const answered = typeof where === 'string' ? `${where}: HTTP 403` : (error as Error).message;
      throw new Error(`${this.where}: lead_delivery.responsible: the CRM refused to list its users to this token (${answered}): `
        + 'its user lacks the right to list users (amoCRM: an account administrator\'s); leave responsible out, or use a token of a user with that right');
    }
  }

  /**
   * Every deal whose lead_id_field holds exactly this lead id: all pages of the CRM's search, each hit's value
   * compared (a full-text search answers near misses too: amoCRM's `query=16` finds 160 and 1016), or read with
   * read_deals (a page of ids at a time) when the search answers ids only.
   */
  async findDeals(leadId: string): Promise<string[]> {
    const field = this.targets.leadIdField;
    const found = new Set<string>();
    const variables = { field, value: leadId, pipeline: this.targets.pipeline.id };
    const pages = this.actions.pages ? await this.actions.pages('find_deals', variables) : [asList(await this.actions.run('find_deals', variables))];
    for (const page of pages) {
      const hits = page.map(toHit).filter((h) => h.id !== '');
      // bare ids: the search answered no values; read_deals (when there is one) reads them, a page at a time
      const unread = hits.filter((h) => h.value === undefined).map((h) => h.id);
      const read = unread.length && this.actions.has('read_deals') ? asList(await this.actions.run('read_deals', { ids: unread, field })).map(toHit) : null;
      for (const hit of hits) {
        // a hit with its value ({ id, value }) matches when that value is the lead id exactly; one whose value is
        // null or missing (a deal with the field empty: amoCRM's full-text `query` answers it for the digits in its
        // name) is another deal, never this lead's
        let value: string | null;
        if (hit.value !== undefined) value = hit.value;
        // read back: a deal read_deals does not answer for (deleted meanwhile), or answers without a value, is no match
        else if (read) value = read.find((r) => r.id === hit.id)?.value ?? null;
        // a bare id without read_deals: the CRM's own filter matched the exact value (a declarative CRM's choice)
        else value = leadId;
        if (value === leadId) found.add(hit.id);
      }
    }
    return [...found];
  }

  /** contacts with this phone (E.164 digits, e.g. 79120001122) or e-mail (lower case) */
  async findContacts(query: { phone: string | null; email: string | null }): Promise<FoundContact[]> {
    const variables = {
      phone: query.phone ?? undefined,
      phone_plus: query.phone ? `+${query.phone}` : undefined,
      phone_local: query.phone ? query.phone.slice(-10) : undefined,
      email: query.email ?? undefined,
    };
    return asList(await this.actions.run('find_contacts', variables)).map((c) => {
      const entry = (c ?? {}) as Record<string, unknown>;
      return { id: text(entry.id), phones: optionalTexts(entry.phones), emails: optionalTexts(entry.emails), deals: optionalTexts(entry.deals) };
    }).filter((c) => c.id !== '');
  }

  /** the contact's deals (of any pipeline; the flow filters) */
  async contactDeals(contact: FoundContact): Promise<ContactDeal[]> {
    if (contact.deals && contact.deals.length === 0) return [];
    const since = new Date(Date.now() - this.plan.duplicateDays * 86_400_000);
    const found = asList(await this.actions.run('contact_deals', {
      contact: contact.id, deal_ids: contact.deals ?? [], pipeline: this.targets.pipeline.id, since: since.toISOString(), since_ms: since.getTime(),
    }));
    return found.map((d) => {
      const entry = (d ?? {}) as Record<string, unknown>;
      const created = entry.created;
      const at = created === undefined || created === null || created === '' ? null : new Date(typeof created === 'number' && created < 1e11 ? created * 1000 : (created as string));
      return { id: text(entry.id), pipeline: text(entry.pipeline), open: entry.open === true, createdAt: at && !isNaN(at.getTime()) ? at : null };
    });
  }

  createContact(contact: { name: string; phone: string | null; email: string | null }): Promise<string> {
    return this.create('create_contact', { name: contact.name, phone: contact.phone ? `+${contact.phone}` : '', email: contact.email ?? '' }, 'contact');
  }

  /** creates the deal (linked to the contact); its id */
  async createDeal(deal: NewDeal): Promise<string> {
    const fields: Record<string, string> = {};
    for (const [field, value] of Object.entries(deal.fields)) fields[this.fieldKeys.get(field) ?? field] = value;
    fields[this.targets.visitField] = deal.visitId;
    fields[this.targets.leadIdField] = deal.leadId;
    const id = await this.create('create_deal', {
      title: deal.title, pipeline: this.targets.pipeline.id, stage: this.targets.stage.id, responsible: this.targets.responsible?.id,
      contact: deal.contactId ?? undefined, fields, field_list: Object.entries(fields).map(([key, value]) => ({ id: key, value })),
    }, 'deal');
    if (deal.contactId && this.actions.has('link_contact')) {
      // the deal exists: a failed link is the run's problem (retried as reads are), never a second deal
      await this.actions.run('link_contact', { deal: id, contact: deal.contactId });
    }
    return id;
  }

  /** a note on a deal; its id */
  addNote(dealId: string, noteText: string): Promise<string> {
    const now = new Date();
    return this.create('add_note', { deal: dealId, text: noteText, now: now.toISOString(), now_ms: now.getTime() }, 'note');
  }

  /**
   * The deal's notes that may be this lead's (find_notes; those listed by id only read with read_notes when there
   * is one), for the look-up before a note whose outcome is unknown is sent again.
   */
  async findNotes(dealId: string, lead: { leadId: string; text: string }): Promise<FoundNote[]> {
    const variables = { deal: dealId, lead: lead.leadId, text: lead.text };
    let notes = asList(await this.actions.run('find_notes', variables)).map(toNote).filter((n) => n.id !== '');
    const unread = notes.filter((n) => n.text === undefined).map((n) => n.id);
    if (unread.length && this.actions.has('read_notes')) {
      const read = asList(await this.actions.run('read_notes', { ...variables, ids: unread })).map(toNote);
      // a note the read does not answer for (deleted meanwhile) is no match
      notes = notes.map((n) => (n.text === undefined ? { id: n.id, text: read.find((r) => r.id === n.id)?.text ?? '' } : n));
    }
    return notes;
  }

  /** A create: sent once (the connector waits out the rate's refusals); the CRM's refusal of the record a LeadRefusedError. */
  private async create(name: string, variables: Record<string, unknown>, what: string): Promise<string> {
    try {
      const id = text(await this.actions.run(name, variables));
      if (!id) throw new UnknownOutcomeError(`${this.where}: the CRM answered the ${what} create without an id (${this.setting(name)}.answer)`);
      return id;
    } catch (error) {
      if (!(error instanceof CrmActionRefusedError)) throw error;
      throw new LeadRefusedError(`the CRM refused the ${what}: ${error.reason}`, this.setting(name));
    }
  }

  private setting(name: string): string {
    return this.actions.setting?.(name) ?? `lead_delivery.actions.${name}`;
  }
}

/** A find_deals / read_deals entry: { id, value } (value: the deal's lead_id_field, null when it has none) or a bare id. */
function toHit(entry: unknown): { id: string; value?: string | null } {
  if (typeof entry !== 'object' || entry === null) return { id: text(entry) };
  const { id, value } = entry as { id?: unknown; value?: unknown };
  return { id: text(id), value: value === undefined || value === null ? null : text(value) };
}

/** A find_notes / read_notes entry: { id, text } (a note without text is no match) or a bare id (text unknown). */
function toNote(entry: unknown): FoundNote {
  if (typeof entry !== 'object' || entry === null) return { id: text(entry) };
  const { id, text: body } = entry as { id?: unknown; text?: unknown };
  return { id: text(id), text: body === undefined || body === null ? '' : String(body) };
}

function optionalTexts(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  return asList(value).flatMap((v) => (v === null || v === undefined ? [] : [typeof v === 'object' ? text((v as { value?: unknown }).value) : text(v)])).filter(Boolean);
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).trim();
}

/** By id, else by name (any case). */
function pick<T extends Named>(items: T[], wanted: string): T | undefined {
  const w = wanted.trim();
  return items.find((i) => i.id === w) ?? items.find((i) => i.name.toLowerCase() === w.toLowerCase());
}

export function named(item: Named): string {
  return item.name && item.name !== item.id ? `"${item.name}" (${item.id})` : item.id;
}

function list(items: Named[]): string {
  return items.length ? items.slice(0, 20).map(named).join(', ') : 'none';
}
