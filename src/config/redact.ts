/**
 * Secrets never leave the process: the admin API and the logs show configs and settings through
 * `redactSecrets`, which replaces values under secret-looking keys and credentials inside URLs.
 */
export const REDACTED = '***';

/** api_key, Api-Key, apiKey, x-api-key, token, access_token, clientSecret, password, webhook_url, ... */
const SECRET_KEY = /(^|_)(api_?key|token|password|passwd|pwd|secret|authorization|cookie|credentials?|private_key|webhook(_url)?)$/;

/** Query parameters that carry credentials in URLs (e.g. ?api_key=... or ?access_token=...). */
const SECRET_PARAM = /(^|_)(api_?key|key|token|password|secret|signature|sig|auth)$/;

/** Bitrix24 incoming webhooks carry their token in the path: /rest/<user id>/<token>/. */
const BITRIX_WEBHOOK_PATH = /^(\/rest\/\d+\/)[^/]+/;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(normalizeKey(key));
}

/** A deep copy of `value` (plain objects and arrays) with every secret replaced by '***'. */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, new WeakSet()) as T;
}

function redactValue(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactUrl(value);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, seen));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSecretKey(key) && item !== undefined && item !== null && item !== '' ? REDACTED : redactValue(item, seen);
  }
  return copy;
}

/**
 * A URL fit for messages and answers: `postgres://user:pw@host/db` → `postgres://user:***@host/db`,
 * `?token=abc` → `?token=***`, a Bitrix24 webhook's token → `***`. Text that is not a URL is returned as it is.
 */
export function redactUrl(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return maskUnparsedUrl(text);
  }
  let changed = false;
  if (url.password) {
    url.password = REDACTED;
    changed = true;
  }
  if (BITRIX_WEBHOOK_PATH.test(url.pathname)) {
    url.pathname = url.pathname.replace(BITRIX_WEBHOOK_PATH, `$1${REDACTED}`);
    changed = true;
  }
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAM.test(normalizeKey(name))) {
      url.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? url.toString().replace(/%2A%2A%2A/g, REDACTED) : text;
}

/** Keys whose value is a URL: `url`, `base_url`, `webhook_url`, `redirect_uri`, `endpoint`, `dsn` ... */
const URL_KEY = /(^|_)(url|uri|endpoint|dsn)$/;

export function isUrlKey(key: string): boolean {
  return URL_KEY.test(normalizeKey(key));
}

/** A path segment this long may be a token (Slack's, Bitrix24's webhook): shorter ones are words (`api`, `services`). */
const TOKEN_LIKE_SEGMENT = 12;

/**
 * A URL that does not parse (a config value reported as wrong, `hooks.slack.com/services/…` without its scheme):
 * no parser can tell which part is secret, so its credentials, its query and any path segment long enough to be a
 * token are masked. The rest stays, enough to see what is wrong with it.
 */
export function maskUnparsedUrl(text: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  const rest = text.slice(scheme.length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  const host = at < 0 ? authority : `${REDACTED}${authority.slice(at)}`;
  if (end < 0) return scheme + host;
  const tail = rest.slice(end);
  const query = tail.search(/[?#]/);
  const path = (query < 0 ? tail : tail.slice(0, query)).split('/').map((part) => (part.length >= TOKEN_LIKE_SEGMENT ? REDACTED : part)).join('/');
  return scheme + host + path + (query < 0 ? '' : `${tail[query]}${REDACTED}`);
}

function normalizeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
}
