import type { TrackerSyncConfig } from '../config/config.schema';
import { isSecretKey, REDACTED } from '../config/redact';

/** Shorter strings are not scrubbed from text: replacing "1" everywhere would garble answers. */
const MIN_SECRET_LENGTH = 4;

/** The `projects:` blocks' keys and URLs, as collectSecretValues reads them (secret keys, passwords in URLs). */
export function projectSecrets(config: Pick<TrackerSyncConfig, 'projects'>): Record<string, unknown>[] {
  return Object.values(config.projects ?? {}).map((block) => ({ api_key: block?.api_key, base_url: block?.base_url }));
}

/** Every secret string found under a secret-looking key of `value` (and passwords inside URLs). */
export function collectSecretValues(value: unknown, into = new Set<string>(), secretKey = false): Set<string> {
  if (typeof value === 'string') {
    if (secretKey && value.length >= MIN_SECRET_LENGTH) into.add(value);
    const password = urlPassword(value);
    if (password) into.add(password);
  } else if (typeof value === 'number' && secretKey) {
    collectSecretValues(String(value), into, true);
  } else if (Array.isArray(value)) {
    for (const item of value) collectSecretValues(item, into, secretKey);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) collectSecretValues(item, into, secretKey || isSecretKey(key));
  }
  return into;
}

/** Cuts every known secret out of every string of `value` (a deep copy; keys are kept). */
export function scrubKnownSecrets<T>(value: T, secrets: readonly string[]): T {
  const ordered = longestFirst(secrets);
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return scrubText(item, ordered);
    if (Array.isArray(item)) return item.map(walk);
    if (!item || typeof item !== 'object' || item instanceof Date) return item;
    return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
  };
  return walk(value) as T;
}

export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  // credentials a connector may echo that no config value names (e.g. a freshly refreshed OAuth token)
  return out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`);
}

function longestFirst(secrets: readonly string[]): string[] {
  return [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

function urlPassword(text: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/:@\s]+:([^@/\s]+)@/i.exec(text);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}
