import type { TrackerSyncConfig } from '../config/config.schema';
import { isSecretKey, REDACTED } from '../config/redact';
import { maskSecretForms, secretForms } from '../http/secret-forms';

/** Shorter strings are not scrubbed from text: replacing "1" everywhere would garble answers. */
const MIN_SECRET_LENGTH = 4;

/**
 * Every secret a config holds: the connections' settings and webhook secrets, the service's key and each
 * project's (and a password in a base URL), the admin token and each scoped token, the alerts' bot tokens, SMTP
 * passwords and webhook URLs, whole and in parts (Slack's carries its token in the path; a receiver's error may
 * echo its path and query without the host).
 */
export function configSecretValues(config: TrackerSyncConfig, into = new Set<string>()): Set<string> {
  for (const connection of config.connections ?? []) collectSecretValues({ ...connection.settings, webhook_secret: connection.webhook?.secret }, into);
  collectSecretValues({ api_key: config.tracker?.api_key, sandbox_api_key: config.sandbox?.api_key }, into);
  collectSecretValues(Object.values(config.projects ?? {}).map((block) => ({ api_key: block?.api_key, base_url: block?.base_url })), into);
  collectSecretValues({ token: config.admin?.token, env_token: process.env.ADMIN_TOKEN }, into);
  // one client's scoped token must never show in what another client (or a log) reads
  for (const scoped of config.admin?.tokens ?? []) collectSecretValues({ token: scoped.token }, into);
  for (const alert of config.alerts ?? []) {
    collectSecretValues({ bot_token: alert.bot_token, url: alert.url }, into);
    if (alert.type !== 'email' && alert.url) for (const part of [alert.url, ...urlSecretParts(alert.url)]) into.add(part);
  }
  return into;
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

/** Parts of a secret URL that no other config value holds */
const LONG_PART = 16;
const QUERY_VALUE = 8;

/**
 * The parts of a secret URL (an alert's webhook) that a receiver's error may echo without the rest: its path with
 * its query, each query value of 8 characters or more, each path segment of 16 or more (Slack's and Discord's
 * tokens). Shorter parts (`/hook`, `services`) are left: cutting them out of every text would garble answers.
 */
export function urlSecretParts(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const parts: string[] = [];
  const pathAndQuery = url.pathname + url.search;
  if (pathAndQuery.length >= LONG_PART) parts.push(pathAndQuery);
  for (const value of url.searchParams.values()) if (value.length >= QUERY_VALUE) parts.push(value, encodeURIComponent(value));
  for (const segment of url.pathname.split('/')) if (segment.length >= LONG_PART) parts.push(segment);
  return parts;
}

/** Cuts every known secret, in each form a server echoes it (secretForms), out of every string of `value` (a deep copy; keys are kept). */
export function scrubKnownSecrets<T>(value: T, secrets: readonly string[]): T {
  const forms = secretForms(new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH)));
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return scrubForms(item, forms);
    if (Array.isArray(item)) return item.map(walk);
    if (!item || typeof item !== 'object' || item instanceof Date) return item;
    return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
  };
  return walk(value) as T;
}

/** Cuts every secret out of `text`: as is, JSON-escaped (once or twice) and percent-encoded (secretForms). */
export function scrubText(text: string, secrets: readonly string[]): string {
  return scrubForms(text, secretForms(secrets));
}

function scrubForms(text: string, forms: readonly string[]): string {
  // credentials a connector may echo that no config value names (e.g. a freshly refreshed OAuth token)
  return maskSecretForms(text, forms, REDACTED).replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`);
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
