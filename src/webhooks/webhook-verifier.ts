import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookVerification } from '../connectors/webhook-capability';

/** A webhook call as the verifier sees it: what the CRM sent, byte for byte. */
export interface WebhookCall {
  method: string;
  /** the URI the CRM called: server.public_url + the path, else the request's own scheme, host and path */
  uri: string;
  /** header names in lower case (as Node gives them) */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** the URL's last part of POST /hooks/{connection}/{secret}; undefined on POST /hooks/{connection} */
  pathSecret?: string;
  /** now, in ms (the timestamp window) */
  now: number;
}

/** ok, or why not: the reason goes to the log and never to the caller. */
export type Verdict = { ok: true } | { ok: false; reason: string };

const OK: Verdict = { ok: true };
const refuse = (reason: string): Verdict => ({ ok: false, reason });

/**
 * Checks a call against the connection's secret, in constant time: every comparison is of two SHA-256 digests
 * (equal lengths whatever was sent), so neither the secret's length nor a matching prefix shows in the timing.
 */
export function verifyWebhookCall(rule: WebhookVerification, secret: string, call: WebhookCall): Verdict {
  switch (rule.type) {
    case 'path_secret':
      if (call.pathSecret === undefined) return refuse('no secret in the URL (/hooks/{connection}/{secret})');
      return sameText(call.pathSecret, secret) ? OK : refuse('the secret in the URL is wrong');
    case 'header_secret': {
      const value = header(call, rule.header);
      if (value === undefined) return refuse(`no ${rule.header} header`);
      return sameText(value, secret) ? OK : refuse(`the ${rule.header} header is wrong`);
    }
    case 'basic': {
      const password = basicPassword(header(call, 'authorization'));
      if (password === undefined) return refuse('no HTTP Basic credentials');
      return sameText(password, secret) ? OK : refuse('the Basic auth password is wrong');
    }
    case 'form_field': {
      const value = new URLSearchParams(call.body.toString('utf8')).get(rule.field);
      if (value === null) return refuse(`no form field ${rule.field}`);
      return sameText(value, secret) ? OK : refuse(`the form field ${rule.field} is wrong`);
    }
    case 'hmac':
      return verifyHmac(rule, secret, call);
    case 'digest':
      return verifyDigest(rule, secret, call);
    case 'versions':
      return verifyVersions(rule, secret, call);
  }
}

/** A call passes when one accepted version verifies it; refused, the reason names each version's. */
function verifyVersions(rule: Extract<WebhookVerification, { type: 'versions' }>, secret: string, call: WebhookCall): Verdict {
  const reasons: string[] = [];
  for (const name of rule.accepted ?? rule.defaults) {
    const version = rule.versions[name];
    if (!version) {
      reasons.push(`${name}: not a signature version of this CRM (${Object.keys(rule.versions).join(', ')})`);
      continue;
    }
    const verdict = verifyWebhookCall(version, secret, call);
    if (verdict.ok) return OK;
    reasons.push(`${name}: ${verdict.reason}`);
  }
  return refuse(reasons.join('; '));
}

function verifyDigest(rule: Extract<WebhookVerification, { type: 'digest' }>, secret: string, call: WebhookCall): Verdict {
  if (rule.versionHeader) {
    const version = header(call, rule.versionHeader);
    if (version?.trim() !== rule.version) return refuse(`the ${rule.versionHeader} header is not ${rule.version}`);
  }
  const sent = header(call, rule.header);
  if (sent === undefined) return refuse(`no ${rule.header} header`);
  const expected = createHash(rule.algorithm).update(signedText(rule.signed, call, secret), 'utf8').digest(rule.encoding);
  const same = rule.encoding === 'hex' ? sameText(sent.trim().toLowerCase(), expected) : sameText(sent.trim(), expected);
  return same ? OK : refuse(`the ${rule.header} signature is wrong`);
}

function verifyHmac(rule: Extract<WebhookVerification, { type: 'hmac' }>, secret: string, call: WebhookCall): Verdict {
  const sent = header(call, rule.header);
  if (sent === undefined) return refuse(`no ${rule.header} header`);
  if (rule.timestampHeader) {
    const stamp = header(call, rule.timestampHeader);
    const at = stamp === undefined || !/^\d+$/.test(stamp.trim()) ? NaN : Number(stamp);
    if (!Number.isFinite(at)) return refuse(`no ${rule.timestampHeader} header with a time`);
    const ms = at < 1e12 ? at * 1000 : at; // seconds or milliseconds
    if (Math.abs(call.now - ms) > (rule.maxAgeMs ?? 5 * 60_000)) return refuse(`the ${rule.timestampHeader} is more than ${(rule.maxAgeMs ?? 300_000) / 1000} s from now`);
  }
  const signed = rule.signed.trim() === 'body' ? call.body : Buffer.from(signedText(rule.signed, call), 'utf8');
  const expected = createHmac(rule.algorithm, secret).update(signed).digest(rule.encoding);
  const value = rule.prefix && sent.startsWith(rule.prefix) ? sent.slice(rule.prefix.length) : sent;
  // hex is compared without regard to case; base64 exactly
  const same = rule.encoding === 'hex' ? sameText(value.trim().toLowerCase(), expected) : sameText(value.trim(), expected);
  return same ? OK : refuse(`the ${rule.header} signature is wrong`);
}

/**
 * `{{method}}{{uri}}{{body}}{{header.x-hubspot-request-timestamp}}` → the text that was signed; `{{secret}}` only for
 * a plain hash (`digest`), whose secret is part of the text.
 */
export function signedText(template: string, call: WebhookCall, secret?: string): string {
  return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_match, name: string) => {
    if (name === 'secret') return secret ?? '';
    if (name === 'method') return call.method.toUpperCase();
    if (name === 'uri') return call.uri;
    if (name === 'body') return call.body.toString('utf8');
    if (name.startsWith('header.')) return header(call, name.slice('header.'.length)) ?? '';
    return '';
  });
}

function header(call: WebhookCall, name: string): string | undefined {
  const value = call.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function basicPassword(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

function sameText(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
