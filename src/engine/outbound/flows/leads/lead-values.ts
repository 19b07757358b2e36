import type { ProxyLead } from '../../../../tracker/types/proxy-leads.types';

/**
 * A proxy lead's contact values as lead delivery compares them: `+7 (912) 000-11-22`, `89120001122` and
 * `79120001122` are one number (digits, a Russian trunk 8 or a bare 10-digit number read as +7); e-mails in
 * lower case.
 */
export function phoneKey(text: string | null | undefined): string | null {
  const digits = String(text ?? '').replace(/\D/g, '');
  if (digits.length < 5) return null;
  if (digits.length === 11 && digits.startsWith('8')) return `7${digits.slice(1)}`;
  if (digits.length === 10 && digits.startsWith('9')) return `7${digits}`;
  return digits;
}

export function emailKey(text: string | null | undefined): string | null {
  const trimmed = String(text ?? '').trim().toLowerCase();
  return trimmed.includes('@') ? trimmed : null;
}

/** `{{title}}`, `{{ name }}`: any field of the proxy lead; an unknown name is ''. */
export function renderLeadTemplate(template: string, lead: ProxyLead): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, name: string) => {
    const value = (lead as unknown as Record<string, unknown>)[name];
    return value === undefined || value === null ? '' : String(value);
  }).trim();
}

/** The note a lead leaves on its contact's open deal: its title, text, where it came from and its visit. */
export function leadNote(lead: ProxyLead): string {
  const who = [lead.name, lead.phone, lead.email].map((v) => (v ?? '').trim()).filter(Boolean).join(', ');
  return [
    lead.title?.trim() || `Proxy lead ${lead.id}`,
    lead.text?.trim() || '',
    `Source: the service's proxy lead ${lead.id}${who ? ` (${who})` : ''}, ${lead.creation_date} UTC`,
    `Visit: ${lead.tracker || 'unknown'}`,
  ].filter(Boolean).join('\n');
}

/** The service's day of a proxy lead (its creation_date is UTC): YYYY-MM-DD. */
export function leadDay(lead: ProxyLead): string {
  return String(lead.creation_date ?? '').slice(0, 10);
}

/**
 * Whether a note the CRM holds is this lead's: its text names `proxy lead <id>` (leadNote's source line), read as
 * plain text whatever the CRM made of it (HTML tags and entities, non-breaking spaces, line breaks as <br>), and
 * not a longer id (`proxy lead 12` is not lead 1).
 */
export function isNoteOfLead(noteText: string, leadId: string): boolean {
  const plain = htmlToText(noteText).toLowerCase();
  const mark = `proxy lead ${String(leadId).trim().toLowerCase()}`;
  for (let at = plain.indexOf(mark); at >= 0; at = plain.indexOf(mark, at + 1)) {
    const next = plain.charAt(at + mark.length);
    if (!/[\p{L}\p{N}_-]/u.test(next)) return true;
  }
  return false;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function htmlToText(text: string): string {
  return String(text ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ');
}
