import { badRequest } from '../../errors/sandbox-error';
import { FieldReader, describe, isPlainObject } from '../common/field-reader';
import { SERVICE_LOCAL_OFFSET, formatUtcTimestamp, parsePlainDate, parseTimestamp } from '../common/service-time';
import {
  CalltrackingType, CrmIntegration, GoogleAnalyticsIntegration, RedirectType, ScriptIntegration, ScriptOptions, Segments,
} from './script.types';

/**
 * Reads `options` and `integration` of script create/update. On create the fields the two
 * statements of the specification mark required are enforced (`options`, `css_selector`,
 * `redirect.type`, `redirect.value`, `replaceable_numbers`, `crm.is_enabled`); on update every
 * field is optional and only the given ones are returned.
 */

const CALLTRACKING_TYPES: readonly CalltrackingType[] = ['dynamic', 'static'];
const REDIRECT_TYPES: readonly RedirectType[] = ['phone', 'sip', 'sip_trunk'];
/** Country code as a digit (optionally with a symbol such as `+`), the rest written as X. */
const PHONE_FORMAT = /^\+?\d{1,4}[\sX()-]*X[\sX()-]*$/;
const GA_TRACKING_ID = /^UA-\d+-\d+$/;
export const DEFAULT_PHONE_FORMAT = '+7XXXXXXXXXX';
export const SERVICE_LABEL = 'tracker';

/**
 * `creation_date` of script create, read as add-orders reads `date_create`: a date-time without
 * offset is UTC+03:00 (a plain day is its midnight there), an offset such as `+0000` is honoured.
 * Stored and answered in the response form `YYYY-MM-DDTHH:MM:SS+0000` (Conventions 7).
 */
export function readCreationDate(reader: FieldReader): string {
  const value = reader.requiredString('creation_date');
  const date = parseTimestamp(parsePlainDate(value) ? `${value} 00:00:00` : value, SERVICE_LOCAL_OFFSET);
  if (!date) {
    throw badRequest(reader.path('creation_date'), `${reader.path('creation_date')}: must be a date-time such as `
      + `2024-05-01 10:00:00 (read as UTC+03:00) or 2024-05-01 07:00:00+0000, got "${value}"`);
  }
  return formatUtcTimestamp(date);
}

export function readCreateOptions(reader: FieldReader): ScriptOptions {
  const options = reader.requiredObject('options');
  const type = options.optionalEnum('calltracking_type', CALLTRACKING_TYPES) ?? 'dynamic';
  const redirect = options.requiredObject('redirect');
  return {
    calltracking_type: type,
    static_source: readStaticSource(options, type),
    css_selector: readCssSelector(options),
    phone_format: readPhoneFormat(options) ?? DEFAULT_PHONE_FORMAT,
    redirect: { type: redirect.requiredEnum('type', REDIRECT_TYPES), value: redirect.requiredString('value') },
    segments: readSegments(options) ?? [],
    target_call_time: options.optionalInteger('target_call_time') ?? 0,
    replaceable_numbers: readReplaceableNumbers(options),
  };
}

export function readUpdateOptions(reader: FieldReader, current: ScriptOptions): ScriptOptions | undefined {
  const options = reader.optionalObject('options');
  if (!options) return undefined;
  const type = options.optionalEnum('calltracking_type', CALLTRACKING_TYPES) ?? current.calltracking_type;
  const redirect = options.optionalObject('redirect');
  return {
    ...current,
    calltracking_type: type,
    static_source: options.has('static_source') || type !== current.calltracking_type
      ? readStaticSource(options, type) : current.static_source,
    css_selector: options.has('css_selector') ? readCssSelector(options) : current.css_selector,
    phone_format: readPhoneFormat(options) ?? current.phone_format,
    redirect: redirect
      ? { type: redirect.requiredEnum('type', REDIRECT_TYPES), value: redirect.requiredString('value') }
      : current.redirect,
    segments: readSegments(options) ?? current.segments,
    target_call_time: options.optionalInteger('target_call_time') ?? current.target_call_time,
    replaceable_numbers: options.has('replaceable_numbers') ? readReplaceableNumbers(options) : current.replaceable_numbers,
  };
}

export function readCreateIntegration(reader: FieldReader): ScriptIntegration {
  const integration = reader.requiredObject('integration');
  const crm = integration.requiredObject('crm');
  return {
    is_lead_auto_create: integration.optionalFlag('is_lead_auto_create') ?? 0,
    crm: { enabled: crm.requiredFlag('is_enabled'), custom_fields: readCustomFields(crm) ?? [] },
    webhook: readWebhook(integration, 'webhook') ?? null,
    webhook_start: readWebhook(integration, 'webhook_start') ?? null,
    google_analytics: readGoogleAnalytics(integration) ?? null,
  };
}

export function readUpdateIntegration(reader: FieldReader, current: ScriptIntegration): ScriptIntegration | undefined {
  const integration = reader.optionalObject('integration');
  if (!integration) return undefined;
  const crm = integration.optionalObject('crm');
  const crmUpdate: CrmIntegration = crm
    ? { enabled: crm.optionalFlag('is_enabled') ?? current.crm.enabled, custom_fields: readCustomFields(crm) ?? current.crm.custom_fields }
    : current.crm;
  return {
    is_lead_auto_create: integration.optionalFlag('is_lead_auto_create') ?? current.is_lead_auto_create,
    crm: crmUpdate,
    webhook: readWebhook(integration, 'webhook') ?? current.webhook,
    webhook_start: readWebhook(integration, 'webhook_start') ?? current.webhook_start,
    google_analytics: readGoogleAnalytics(integration) ?? current.google_analytics,
  };
}

/** null when dynamic; the channel system name when static. */
function readStaticSource(options: FieldReader, type: CalltrackingType): string | null {
  if (type === 'dynamic') return null;
  return options.nullableString('static_source') ?? null;
}

/** Css classes or ids; an id is `#name` without spaces. */
function readCssSelector(options: FieldReader): string[] {
  const selectors = options.requiredStringArray('css_selector');
  selectors.forEach((selector, index) => {
    const path = `${options.path('css_selector')}[${index}]`;
    if (selector.trim() === '' || /\s/.test(selector.trim()) || selector.startsWith('# ')) {
      throw badRequest(path, `${path}: a css class or #id without spaces, got "${selector}"`);
    }
  });
  return selectors;
}

function readPhoneFormat(options: FieldReader): string | undefined {
  const format = options.optionalString('phone_format');
  if (format !== undefined && !PHONE_FORMAT.test(format)) {
    const path = options.path('phone_format');
    throw badRequest(path, `${path}: country code then X for each digit (such as +7XXXXXXXXXX), got "${format}"`);
  }
  return format;
}

/** Required on create: the numbers shown instead of the site's main number. */
function readReplaceableNumbers(options: FieldReader): string[] {
  const numbers = options.requiredStringArray('replaceable_numbers');
  const path = options.path('replaceable_numbers');
  if (numbers.length === 0) throw badRequest(path, `${path}: at least one number is required`);
  numbers.forEach((number, index) => {
    if (!/^\+?[\d\s()-]{5,}$/.test(number)) throw badRequest(`${path}[${index}]`, `${path}[${index}]: not a phone number: "${number}"`);
  });
  return numbers;
}

/** A list of triples, or an object whose keys are AND / OR holding lists of triples. */
function readSegments(options: FieldReader): Segments | undefined {
  if (!options.has('segments')) return undefined;
  const raw = options.raw('segments');
  const path = options.path('segments');
  if (Array.isArray(raw)) return checkTriples(raw, path);
  if (!isPlainObject(raw)) throw badRequest(path, `${path}: must be a list of triples or {AND|OR: triples}, got ${describe(raw)}`);
  const unknownKey = Object.keys(raw).find((key) => key !== 'AND' && key !== 'OR');
  if (unknownKey) throw badRequest(`${path}.${unknownKey}`, `${path}.${unknownKey}: only AND and OR keys are allowed`);
  const segments: Segments = {};
  if (raw.AND !== undefined) segments.AND = checkTriples(raw.AND, `${path}.AND`);
  if (raw.OR !== undefined) segments.OR = checkTriples(raw.OR, `${path}.OR`);
  return segments;
}

function checkTriples(raw: unknown, path: string): [string, string, unknown][] {
  if (!Array.isArray(raw)) throw badRequest(path, `${path}: must be a list of triples, got ${describe(raw)}`);
  return raw.map((triple, index) => {
    if (!Array.isArray(triple) || triple.length !== 3 || typeof triple[0] !== 'string' || typeof triple[1] !== 'string') {
      throw badRequest(`${path}[${index}]`, `${path}[${index}]: must be [field, operator, value], got ${describe(triple)}`);
    }
    return triple as [string, string, unknown];
  });
}

function readCustomFields(crm: FieldReader): CrmIntegration['custom_fields'] | undefined {
  if (!crm.has('custom_fields')) return undefined;
  return crm.objectItems('custom_fields').map((field) => ({
    id: field.requiredId('id'), type: field.requiredString('type'), value: field.nullableString('value') ?? '',
  }));
}

function readWebhook(integration: FieldReader, name: 'webhook' | 'webhook_start'): { url: string | null } | undefined {
  const webhook = integration.optionalObject(name);
  if (!webhook) return undefined;
  const url = webhook.nullableString('url') ?? null;
  if (url !== null && !/^https?:\/\/\S+$/.test(url)) {
    throw badRequest(webhook.path('url'), `${webhook.path('url')}: must be an http(s) URL, got "${url}"`);
  }
  return { url };
}

/** `action` is always `call`, `category` always `phone`, `label` the service name in lower case. */
function readGoogleAnalytics(integration: FieldReader): GoogleAnalyticsIntegration | undefined {
  const ga = integration.optionalObject('google_analytics');
  if (!ga) return undefined;
  const trackingId = ga.nullableString('tracking_id') ?? null;
  if (trackingId !== null && !GA_TRACKING_ID.test(trackingId)) {
    throw badRequest(ga.path('tracking_id'), `${ga.path('tracking_id')}: must have the form UA-XXX-Y, got "${trackingId}"`);
  }
  ga.optionalEnum('action', ['call'] as const);
  ga.optionalEnum('category', ['phone'] as const);
  return { tracking_id: trackingId, action: 'call', category: 'phone', label: SERVICE_LABEL };
}
