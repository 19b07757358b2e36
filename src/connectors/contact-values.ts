/**
 * Contact values shared by the connectors, so that a phone reads the same from a CRM and from a sheet
 * (the service matches clients to visits by it).
 * Phones and e-mails arrive as a string, a list of strings, or a CRM's multi-value list
 * ([{ VALUE }] in Bitrix24, [{ value, primary }] in Pipedrive, [{ value, enum_code }] in amoCRM).
 */

export function multiValues(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  const texts: string[] = [];
  for (const item of items) {
    if (item === null || item === undefined) continue;
    if (typeof item === 'object') {
      const inner = (item as Record<string, unknown>).value ?? (item as Record<string, unknown>).VALUE;
      texts.push(...multiValues(inner));
    } else {
      texts.push(String(item));
    }
  }
  return texts;
}

/** An extension at the end of a phone: `доб. 12`, `доб12`, `ext. 12`, `x12`, `#12` (any case). */
const EXTENSION = /(?:доб\.?|ext\.?|x|#)\s*\d+\s*$/iu;

/**
 * '+7 (495) 123-45-67' -> '+74951234567': digits only, a leading + kept. An extension is cut first: its digits
 * glued to the number would make another, wrong phone ('8-916-000-00-06 доб. 12' is 89160000006, not ...0612).
 */
export function normalizePhone(text: string): string | null {
  const trimmed = text.trim().replace(EXTENSION, '');
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length === 0) return null;
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

export function normalizeEmail(text: string): string | null {
  const trimmed = text.trim().toLowerCase();
  return trimmed.length > 0 ? trimmed : null;
}

export function normalizedList(value: unknown, normalize: (text: string) => string | null): string[] {
  const unique = new Set<string>();
  for (const text of multiValues(value)) {
    const normalized = normalize(text);
    if (normalized) unique.add(normalized);
  }
  return [...unique];
}
