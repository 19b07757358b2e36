import type { CheckResult, WriteContext } from 'tracker-sync/connector';
import {
  ContactDeal, FoundContact, FoundNote, LeadCapability, LeadCrm, LeadDeliveryPlan, LeadRefusedError, Named, NewDeal, sleep, UnknownOutcomeError,
} from 'tracker-sync/connector';
import {
  LEAD_DEFAULTS, LEAD_REQUIRED_REQUESTS, LeadDeliveryDefinition, LeadRequestDefinition, LeadRequestsDefinition,
} from './definition/lead-delivery-definition';
import { ErrorDefinition } from './definition/source-definition';
import { Requester } from './http/requester';
import { readLookupPages } from './pagination/lead-pages';
import { asList } from './pagination/list-pages';
import { RetryPolicy } from './http/retry-policy';
import { RateBlockError, SourceError } from './http/source-error';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { withSession } from './crm-session';
import { sourceSession } from './source-session';
import { ResolvedSource } from './source-config';
import { evaluateAnswer, renderRequest } from './request-template';
import { TemplateVariables } from './templates';

/** how many times a create refused for the rate (429, or the source's retry.extra answers) is sent again */
const RATE_RETRIES = 5;

/**
 * The generic CRM's lead delivery: `settings.lead_delivery` (the user's keys, the preset's `requests`) turned
 * into the CRM's requests through the same requester as the reads (auth, the connection's rate limiter,
 * redaction). Reads are retried as reads are; a create is sent once: an answer that may hide a create that landed
 * (timeout, dropped connection, 5xx) is an UnknownOutcomeError, and the flow looks the deal up before it sends
 * the create again.
 */
export const genericCrmLeads: LeadCapability<GenericCrmSettings> = {
  plan(settings): LeadDeliveryPlan | null {
    const mine = settings.lead_delivery;
    if (!mine) return null;
    return {
      schedule: mine.schedule ?? LEAD_DEFAULTS.schedule,
      since: mine.since,
      title: mine.title ?? LEAD_DEFAULTS.title,
      fields: Object.fromEntries(Object.entries(mine.fields ?? {}).map(([field, template]) => [field, String(template)])),
      duplicates: mine.duplicates ?? LEAD_DEFAULTS.duplicates,
      duplicateDays: mine.duplicate_days ?? LEAD_DEFAULTS.duplicate_days,
    };
  },

  /** within the pass's session (context.session): the LeadCrm's requests share its token, limiter and agents */
  async open(context): Promise<LeadCrm> {
    return new GenericLeadCrm(context).resolve();
  },

  check: (settings, context) => withSession({ ...context, settings }, checkLeads),
};

async function checkLeads(context: WriteContext<GenericCrmSettings>): Promise<CheckResult> {
  try {
    const crm = await genericCrmLeads.open(context);
    const { pipeline, stage, responsible, leadIdField } = crm.targets;
    return {
      ok: true,
      message: `lead_delivery: pipeline ${named(pipeline)}, stage ${named(stage)}${responsible ? `, responsible ${named(responsible)}` : ''}, lead_id_field ${leadIdField}`,
    };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

class GenericLeadCrm implements LeadCrm {
  targets!: LeadCrm['targets'];
  private readonly source: ResolvedSource;
  private readonly delivery: LeadDeliveryDefinition;
  private readonly requests: LeadRequestsDefinition;
  private readonly reads: Requester;
  /** creates: one attempt each (see genericCrmLeads) */
  private readonly creates: Requester;
  private readonly retry: RetryPolicy;
  private readonly errors: ErrorDefinition[];
  private readonly redact: (text: string) => string;
  /** the note look-up, only when the requests describe one (find_notes): see LeadCrm.findNotes */
  readonly findNotes?: (dealId: string, lead: { leadId: string; text: string }) => Promise<FoundNote[]>;
  /** lead_delivery.lookup_lag_seconds: see LeadCrm.lookupLagMs */
  readonly lookupLagMs: number;
  /** the user's field (id or name) → the CRM's key, for every field a deal is made with */
  private fieldKeys = new Map<string, string>();
  private readonly where: string;

  constructor(private readonly context: WriteContext<GenericCrmSettings>) {
    const session = sourceSession(context);
    this.source = session.source;
    this.where = `connection ${context.connectionId}`;
    const delivery = this.source.lead_delivery;
    if (!delivery || !context.settings.lead_delivery) throw new Error(`${this.where}: settings.lead_delivery is not set`);
    this.delivery = delivery;
    this.requests = delivery.requests ?? {};
    const missing = LEAD_REQUIRED_REQUESTS.filter((name) => !this.requests[name]?.path);
    if (missing.length) {
      throw new Error(`${this.where}: lead_delivery.requests.${missing[0]} is missing (${this.source.preset ? `preset ${this.source.preset} ships no lead delivery` : 'no preset: describe the requests'}; missing: ${missing.join(', ')})`);
    }
    if (this.requests.find_notes?.path) this.findNotes = (dealId, lead) => this.notesOf(dealId, lead);
    this.lookupLagMs = (delivery.lookup_lag_seconds ?? 0) * 1000;
    this.reads = session.requester('lead_delivery');
    this.creates = session.requester('lead_delivery', { max_attempts: 1 });
    this.retry = new RetryPolicy(this.source.retry);
    this.errors = this.source.errors ?? [];
    this.redact = (text) => session.redactor.redact(text);
  }

  /** The pipeline, stage, responsible user and fields, each checked against the CRM (errors name the key). */
  async resolve(): Promise<this> {
    const delivery = this.delivery;
    const fields = (await this.lookUp('deal_fields', {})).flat().map((f) => ({ key: text(getPath(f, 'key')), name: text(getPath(f, 'name')) }));
    const fieldKey = (wanted: string, key: string) => {
      const found = fields.find((f) => f.key === wanted) ?? fields.find((f) => f.name.toLowerCase() === wanted.toLowerCase());
      if (!found) {
        const known = fields.slice(0, 20).map((f) => (f.key === f.name ? f.key : `${f.name} (${f.key})`)).join(', ');
        throw new Error(`${this.where}: ${key}: the CRM has no deal field "${wanted}" (its fields: ${known}${fields.length > 20 ? ', …' : ''})`);
      }
      this.fieldKeys.set(wanted, found.key);
      return found.key;
    };
    const leadIdField = fieldKey(String(delivery.lead_id_field), 'lead_delivery.lead_id_field');
    const visitField = fieldKey(this.source.visit_field, 'visit_field');
    for (const field of Object.keys(delivery.fields ?? {})) fieldKey(field, `lead_delivery.fields.${field}`);

    const pipelines = asList(await this.call('pipelines', {})).map((p) => ({
      id: text(getPath(p, 'id')), name: text(getPath(p, 'name')), main: getPath(p, 'main') === true, stages: getPath(p, 'stages'),
    }));
    const pipeline = delivery.pipeline === undefined
      ? pipelines.find((p) => p.main) ?? pipelines[0]
      : pick(pipelines, delivery.pipeline);
    if (!pipeline) throw new Error(`${this.where}: lead_delivery.pipeline: the CRM has no pipeline ${delivery.pipeline === undefined ? '(none at all)' : `"${delivery.pipeline}"`} (its pipelines: ${list(pipelines)})`);
    const stageList = pipeline.stages !== undefined && pipeline.stages !== null
      ? asList(pipeline.stages)
      : this.requests.stages ? asList(await this.call('stages', { pipeline: pipeline.id })) : [];
    const stages = stageList.map((s) => ({ id: text(getPath(s, 'id')), name: text(getPath(s, 'name')), refused: text(getPath(s, 'refused')) }));
    // a stage the CRM takes no new deal in (amoCRM's unsorted one) is its pipeline's, but never the default
    const open = stages.filter((s) => !s.refused);
    const found = delivery.stage === undefined ? open[0] : pick(stages, delivery.stage);
    if (!found) throw new Error(`${this.where}: lead_delivery.stage: pipeline ${named(pipeline)} has no stage ${delivery.stage === undefined ? 'a deal can be created in' : `"${delivery.stage}"`} (its stages: ${list(stages)})`);
    if (found.refused) throw new Error(`${this.where}: lead_delivery.stage: stage ${named(found)} of pipeline ${named(pipeline)} takes no new deals: ${found.refused} (stages it takes them in: ${list(open)})`);
    const stage: Named = { id: found.id, name: found.name };
    let responsible: Named | null = null;
    if (delivery.responsible !== undefined) {
      const users = (await this.usersList()).map((u) => ({ id: text(getPath(u, 'id')), name: text(getPath(u, 'name')) }));
      responsible = pick(users, delivery.responsible) ?? null;
      if (!responsible) throw new Error(`${this.where}: lead_delivery.responsible: the CRM has no user "${delivery.responsible}" (its users: ${list(users)})`);
    }
    this.targets = { pipeline: { id: pipeline.id, name: pipeline.name }, stage, responsible, leadIdField, visitField };
    return this;
  }

  /** The users, for `responsible`: a CRM that lists them only to some users (amoCRM: administrators) says so, not "credentials". */
  private async usersList(): Promise<unknown[]> {
    try {
      // every page of the CRM's users: the responsible one may be on any
      return (await this.lookUp('users', {})).flat();
    } catch (error) {
      if (!(error instanceof SourceError) || error instanceof RateBlockError || error.status !== 403) throw error;
      throw new Error(`${this.where}: lead_delivery.responsible: the CRM refused to list its users to this token (${error.where}: HTTP 403): `
        + 'its user lacks the right to list users (amoCRM: an account administrator\'s); leave responsible out, or use a token of a user with that right');
    }
  }

  /**
   * Every deal whose lead_id_field holds exactly this lead id: all pages of the CRM's search, each hit's value
   * compared (a full-text search answers near misses too: amoCRM's `query=16` finds 160 and 1016), or read with
   * read_deals when the search answers ids only.
   */
  async findDeals(leadId: string): Promise<string[]> {
    const field = this.targets.leadIdField;
    const found = new Set<string>();
    for (const page of await this.lookUp('find_deals', { field, value: leadId, pipeline: this.targets.pipeline.id })) {
      const hits = page.map(toHit).filter((h) => h.id !== '');
      const unread = hits.filter((h) => h.value === undefined).map((h) => h.id);
      const read = unread.length && this.requests.read_deals?.path
        ? (await this.lookUp('read_deals', { ids: unread, field })).flat().map(toHit)
        : null;
      for (const hit of hits) {
        // a bare id without read_deals: the CRM's own filter matched the exact value (a declarative CRM's choice)
        const value = hit.value ?? (read ? read.find((r) => r.id === hit.id)?.value ?? null : leadId);
        if (value === leadId) found.add(hit.id);
      }
    }
    return [...found];
  }

  async findContacts(query: { phone: string | null; email: string | null }): Promise<FoundContact[]> {
    const variables = {
      phone: query.phone ?? undefined,
      phone_plus: query.phone ? `+${query.phone}` : undefined,
      phone_local: query.phone ? query.phone.slice(-10) : undefined,
      email: query.email ?? undefined,
    };
    return (await this.lookUp('find_contacts', variables)).flat().map((c) => ({
      id: text(getPath(c, 'id')),
      phones: optionalTexts(getPath(c, 'phones')),
      emails: optionalTexts(getPath(c, 'emails')),
      deals: optionalTexts(getPath(c, 'deals')),
    })).filter((c) => c.id !== '');
  }

  async contactDeals(contact: FoundContact & { deals?: string[] }): Promise<ContactDeal[]> {
    if (contact.deals && contact.deals.length === 0) return [];
    const since = new Date(Date.now() - (this.delivery.duplicate_days ?? LEAD_DEFAULTS.duplicate_days) * 86_400_000);
    const found = (await this.lookUp('contact_deals', {
      contact: contact.id, deal_ids: contact.deals ?? [], pipeline: this.targets.pipeline.id, since: since.toISOString(), since_ms: since.getTime(),
    })).flat();
    return found.map((d) => {
      const created = getPath(d, 'created');
      const at = created === undefined || created === null || created === '' ? null : new Date(typeof created === 'number' && created < 1e11 ? created * 1000 : (created as string));
      return { id: text(getPath(d, 'id')), pipeline: text(getPath(d, 'pipeline')), open: getPath(d, 'open') === true, createdAt: at && !isNaN(at.getTime()) ? at : null };
    });
  }

  async createContact(contact: { name: string; phone: string | null; email: string | null }): Promise<string> {
    const id = await this.create('create_contact', { name: contact.name, phone: contact.phone ? `+${contact.phone}` : '', email: contact.email ?? '' }, 'contact');
    return id;
  }

  async createDeal(deal: NewDeal): Promise<string> {
    const fields: Record<string, string> = {};
    for (const [field, value] of Object.entries(deal.fields)) fields[this.fieldKeys.get(field) ?? field] = value;
    fields[this.targets.visitField] = deal.visitId;
    fields[this.targets.leadIdField] = deal.leadId;
    const id = await this.create('create_deal', {
      title: deal.title, pipeline: this.targets.pipeline.id, stage: this.targets.stage.id, responsible: this.targets.responsible?.id,
      contact: deal.contactId ?? undefined, fields, field_list: Object.entries(fields).map(([key, value]) => ({ id: key, value })),
    }, 'deal');
    if (deal.contactId && this.requests.link_contact?.path) {
      // the deal exists: a failed link is the run's problem (retried as reads are), never a second deal
      await this.call('link_contact', { deal: id, contact: deal.contactId });
    }
    return id;
  }

  async addNote(dealId: string, noteText: string): Promise<string> {
    const now = new Date();
    return this.create('add_note', { deal: dealId, text: noteText, now: now.toISOString(), now_ms: now.getTime() }, 'note');
  }

  /** The deal's notes (find_notes), those listed by id only read with read_notes when there is one. */
  private async notesOf(dealId: string, lead: { leadId: string; text: string }): Promise<FoundNote[]> {
    const variables = { deal: dealId, lead: lead.leadId, text: lead.text };
    let notes = asList(await this.call('find_notes', variables)).map(toNote).filter((n) => n.id !== '');
    const unread = notes.filter((n) => n.text === undefined).map((n) => n.id);
    if (unread.length && this.requests.read_notes?.path) {
      const read = asList(await this.call('read_notes', { ...variables, ids: unread })).map(toNote);
      // a note the read does not answer for (deleted meanwhile) is no match
      notes = notes.map((n) => (n.text === undefined ? { id: n.id, text: read.find((r) => r.id === n.id)?.text ?? '' } : n));
    }
    return notes;
  }

  /** A create: sent once; the rate's refusals waited out; the CRM's refusal of the record a LeadRefusedError. */
  private async create(name: keyof LeadRequestsDefinition, variables: TemplateVariables, what: string): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const id = text(await this.call(name, variables, this.creates));
        if (!id) throw new UnknownOutcomeError(`${this.where}: the CRM answered the ${what} create without an id (lead_delivery.requests.${name}.answer)`);
        return id;
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        const rateRefusal = error.status === 429 || (error.status !== undefined && this.retry.retryReason(error.status, JSON.stringify(error.answer ?? '')) !== null && error.status !== 500 && error.status !== 502 && error.status !== 504);
        if (rateRefusal && attempt <= RATE_RETRIES) {
          await sleep(this.retry.delayMs(attempt), this.context.signal);
          continue;
        }
        // a refused token, or an address the CRM blocked, fails the run as it is (nothing was taken)
        if (error.credentialsRefused || error instanceof RateBlockError) throw error;
        if (error.status === undefined || error.status >= 500 || error.status === 429) {
          throw new UnknownOutcomeError(error.message);
        }
        throw new LeadRefusedError(`the CRM refused the ${what}: ${this.redact(crmMessage(error, this.errors) ?? error.reason)}`, `lead_delivery.requests.${name}`);
      }
    }
  }

  private async call(name: keyof LeadRequestsDefinition, variables: TemplateVariables, requester = this.reads): Promise<unknown> {
    const request = this.request(name);
    // a create's 403 may be that record's refusal, not the token's (the requester's recordWrite rule)
    const answer = await requester.send({ ...(await renderRequest(request, variables)), recordWrite: requester === this.creates });
    return evaluateAnswer(`${this.where}: lead_delivery.requests.${name}`, request, answer.body, variables);
  }

  /** A look-up through every page of its matches (the request's paginator): a list of what `answer` gives, per page. */
  private async lookUp(name: keyof LeadRequestsDefinition, variables: TemplateVariables): Promise<unknown[][]> {
    const request = this.request(name);
    return readLookupPages(request, await renderRequest(request, variables), this.reads,
      (body) => evaluateAnswer(`${this.where}: lead_delivery.requests.${name}`, request, body, variables), `${this.where}: lead_delivery.requests.${name}`);
  }

  private request(name: keyof LeadRequestsDefinition): LeadRequestDefinition {
    const request = this.requests[name] as LeadRequestDefinition | undefined;
    if (!request?.path) throw new Error(`${this.where}: lead_delivery.requests.${name} is missing`);
    return request;
  }
}

/** A find_deals / read_deals entry: { id, value } (value: the deal's lead_id_field, null when it has none) or a bare id. */
function toHit(entry: unknown): { id: string; value?: string | null } {
  if (typeof entry !== 'object' || entry === null) return { id: text(entry) };
  const value = getPath(entry, 'value');
  return { id: text(getPath(entry, 'id')), value: value === undefined || value === null ? null : text(value) };
}

/** A find_notes / read_notes entry: { id, text } (a note without text is no match) or a bare id (text unknown). */
function toNote(entry: unknown): FoundNote {
  if (typeof entry !== 'object' || entry === null) return { id: text(entry) };
  const body = getPath(entry, 'text');
  return { id: text(getPath(entry, 'id')), text: body === undefined || body === null ? '' : String(body) };
}

function optionalTexts(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  return asList(value).flatMap((v) => (v === null || v === undefined ? [] : [typeof v === 'object' ? text(getPath(v, 'value')) : text(v)])).filter(Boolean);
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).trim();
}

/** By id, else by name (any case). */
function pick<T extends Named>(items: T[], wanted: string | number): T | undefined {
  const w = String(wanted).trim();
  return items.find((i) => i.id === w) ?? items.find((i) => i.name.toLowerCase() === w.toLowerCase());
}

function named(item: Named): string {
  return item.name && item.name !== item.id ? `"${item.name}" (${item.id})` : item.id;
}

function list(items: Named[]): string {
  return items.length ? items.slice(0, 20).map(named).join(', ') : 'none';
}

function crmMessage(error: SourceError, rules: ErrorDefinition[]): string | undefined {
  for (const rule of rules) {
    const message = rule.message_path ? getPath(error.answer, rule.message_path) : undefined;
    if (typeof message === 'string' && message.trim() !== '') return `HTTP ${error.status}: ${message.trim()}`;
  }
  return undefined;
}
