import type { FoundContact, LeadCrm } from './lead-crm';
import type { LeadDeliveryPlan } from './lead-settings';
import type { ProxyLead } from '../../../../tracker/types/proxy-leads.types';
import { emailKey, phoneKey } from './lead-values';

/** What one lead will become: a new deal (with its contact, found or to create) or a note on an open deal. */
export type LeadDecision =
  | { action: 'create'; contact: FoundContact | null; contactKey: string | null }
  | { action: 'note'; dealId: string; contact: FoundContact | null; contactKey: string | null; why: string };

/** The contacts of this pass already given a deal: a second lead of the same contact goes to that deal. */
export type PassContacts = Map<string, { contactId: string | null; dealId: string }>;

/**
 * Decides, reading the CRM only: the lead's contact (by phone, else e-mail; the CRM's search narrowed to those
 * that really hold the number or address), and with `duplicates: attach` the contact's newest open deal in the
 * pipeline created within duplicate_days, or the deal this pass gave the same contact.
 */
export async function decide(lead: ProxyLead, crm: LeadCrm, plan: LeadDeliveryPlan, passContacts: PassContacts, now: Date): Promise<LeadDecision> {
  const phone = phoneKey(lead.phone);
  const email = emailKey(lead.email);
  const keys = [phone && `phone:${phone}`, email && `email:${email}`].filter((k): k is string => !!k);
  const contactKey = keys[0] ?? null;
  const attach = plan.duplicates === 'attach';
  const earlier = keys.map((k) => passContacts.get(k)).find(Boolean);
  if (attach && earlier) {
    return { action: 'note', dealId: earlier.dealId, contact: earlier.contactId ? { id: earlier.contactId } : null, contactKey, why: 'a deal of the same contact made in this pass' };
  }
  const contact = phone || email ? await findContact(crm, phone, email) : null;
  if (attach && contact) {
    const since = now.getTime() - plan.duplicateDays * 86_400_000;
    const open = (await crm.contactDeals(contact))
      .filter((d) => d.open && d.pipeline === crm.targets.pipeline.id && (d.createdAt === null || d.createdAt.getTime() >= since))
      .sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0));
    if (open[0]) return { action: 'note', dealId: open[0].id, contact, contactKey, why: `contact ${contact.id}'s open deal` };
  }
  return { action: 'create', contact, contactKey };
}

/** The lead's contact in the CRM (phone and e-mail as phoneKey / emailKey give them), or null. */
export async function findContact(crm: LeadCrm, phone: string | null, email: string | null): Promise<FoundContact | null> {
  // by phone, then (nothing found) by e-mail: one search each, as every CRM searches one value at a time
  const found = phone ? await crm.findContacts({ phone, email: null }) : [];
  if (email && !found.some((c) => c.phones === undefined && c.emails === undefined ? true : (c.phones ?? []).some((p) => phoneKey(p) === phone))) {
    found.push(...(await crm.findContacts({ phone: null, email })));
  }
  const matches = (c: FoundContact) => {
    // a CRM that answers without the values (Bitrix24 crm.duplicate.findbycomm) matched them itself
    if (c.phones === undefined && c.emails === undefined) return true;
    return (!!phone && (c.phones ?? []).some((p) => phoneKey(p) === phone)) || (!!email && (c.emails ?? []).some((e) => emailKey(e) === email));
  };
  const hits = found.filter(matches);
  // by phone first, then the oldest contact (the lowest id) as the CRMs' own duplicate merges keep it
  const byPhone = hits.filter((c) => !!phone && (c.phones ?? []).some((p) => phoneKey(p) === phone));
  const pick = (byPhone.length ? byPhone : hits).sort((a, b) => compareIds(a.id, b.id));
  return pick[0] ?? null;
}

function compareIds(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b);
}
