import type {
  WebhookCapability, WebhookContext, WebhookRegistration, WebhookRegisterResult, WebhookTarget, WebhookVerification,
} from 'tracker-sync/connector';
import { authSecret, authTypeOf } from './auth/auth-secret';
import { isPlainObject } from './definition/validators';
import { RequestSpec } from './http/requester';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { withSession } from './crm-session';
import { sourceSession } from './source-session';
import { resolveSource } from './source-config';
import { renderTemplate, TemplateVariables } from './templates';

/**
 * A preset's `webhooks:` section (declarative, no code per CRM):
 *   verify:   how its calls are verified (type hmac | digest | basic | path_secret | header_secret | form_field, and its
 *             keys; or type versions: `versions` by name, each one of those, and `defaults`, the names accepted
 *             unless the connection's webhook.signature_versions names others)
 *   register: the CRM's API for registrations, when it has one:
 *     auth:   the connection's auth types it works with (absent = any); with another, `steps` are printed
 *     list:   { request, records, id, url, events } — the registrations; `url`, `id`, `events` are paths (or `=JSONata` over $fields)
 *     create: [request, ...] — sent in turn with {{url}}, {{secret}}, {{connection}}
 *     delete: request — sent per registration of this connection with {{id}}, {{url}}, {{events}}
 *   steps:    what a person does where the API cannot register ({{url}} is the URL to register)
 */
interface WebhooksSection {
  verify?: Record<string, unknown>;
  register?: {
    auth?: string[];
    list: { request: RequestSpec; records?: string; id?: string; url: string; events?: string };
    create: RequestSpec[];
    delete: RequestSpec;
  };
  steps?: string[];
}

function sectionOf(settings: GenericCrmSettings): WebhooksSection | null {
  const section = (resolveSource(settings) as unknown as { webhooks?: unknown }).webhooks;
  return isPlainObject(section) ? (section as WebhooksSection) : null;
}

/** The preset's verify block, in the daemon's terms (snake_case keys of the YAML → the capability's). */
function verification(settings: GenericCrmSettings): WebhookVerification | null {
  const verify = sectionOf(settings)?.verify;
  return verify ? ruleOf(verify) : null;
}

function ruleOf(verify: Record<string, unknown>): WebhookVerification | null {
  if (typeof verify.type !== 'string') return null;
  const text = (key: string) => (typeof verify[key] === 'string' ? (verify[key] as string) : undefined);
  switch (verify.type) {
    case 'hmac':
      return {
        type: 'hmac', header: text('header')!, algorithm: text('algorithm') === 'sha1' ? 'sha1' : 'sha256',
        encoding: text('encoding') === 'base64' ? 'base64' : 'hex', signed: text('signed') ?? 'body', prefix: text('prefix'),
        timestampHeader: text('timestamp_header'), maxAgeMs: typeof verify.max_age_seconds === 'number' ? verify.max_age_seconds * 1000 : undefined,
      };
    case 'digest':
      return {
        type: 'digest', header: text('header')!, algorithm: text('algorithm') === 'sha1' ? 'sha1' : 'sha256',
        encoding: text('encoding') === 'base64' ? 'base64' : 'hex', signed: text('signed') ?? '{{secret}}{{body}}',
        versionHeader: text('version_header'), version: text('version'),
      };
    case 'versions': {
      const versions: Record<string, WebhookVerification> = {};
      for (const [name, rule] of Object.entries(isPlainObject(verify.versions) ? verify.versions : {})) {
        const parsed = isPlainObject(rule) ? ruleOf(rule) : null;
        if (parsed) versions[name] = parsed;
      }
      const defaults = Array.isArray(verify.defaults) ? verify.defaults.map(String) : Object.keys(versions).slice(0, 1);
      return { type: 'versions', versions, defaults };
    }
    case 'basic':
    case 'path_secret':
      return { type: verify.type };
    case 'header_secret':
      return { type: 'header_secret', header: text('header')! };
    case 'form_field':
      return { type: 'form_field', field: text('field')! };
    default:
      return null;
  }
}

/** Why the API cannot register for this connection (then the steps are printed), or null when it can. */
function manualReason(settings: GenericCrmSettings, section: WebhooksSection | null): string | null {
  if (!section?.register) return 'its API has no way to register webhooks';
  const source = resolveSource(settings);
  const auth = authTypeOf(source.auth ?? {}, authSecret(source.auth ?? {}, source.token));
  if (section.register.auth && !section.register.auth.includes(auth)) {
    return `its API registers webhooks only for a connection with auth ${section.register.auth.join(' or ')} (this one has ${auth})`;
  }
  return null;
}

async function manualSteps(section: WebhooksSection | null, target: WebhookTarget, reason: string): Promise<{ status: 'manual'; steps: string[] }> {
  const steps = await Promise.all((section?.steps ?? [`Register ${target.url} in the CRM as the webhook of deal changes.`])
    .map(async (step) => String(await renderTemplate(step, variablesOf(target)))));
  return { status: 'manual', steps: [`The CRM cannot be asked to register the webhook: ${reason}.`, ...steps] };
}

function variablesOf(target: WebhookTarget, extra: TemplateVariables = {}): TemplateVariables {
  return { url: target.url, secret: target.secret, connection: target.connectionId, ...extra };
}

async function send(context: WebhookContext<GenericCrmSettings>, spec: RequestSpec, variables: TemplateVariables) {
  return sourceSession(context).requester('webhooks').send({
    method: spec.method,
    path: String(await renderTemplate(spec.path, variables)),
    query: spec.query ? ((await renderTemplate(spec.query, variables)) as Record<string, unknown>) : undefined,
    body: spec.body === undefined ? undefined : await renderTemplate(spec.body, variables),
  });
}

async function field(record: unknown, path: string | undefined): Promise<unknown> {
  if (!path) return undefined;
  if (path.startsWith('=')) return renderTemplate(path, isPlainObject(record) ? record : {});
  return getPath(record, path);
}

async function registrations(settings: GenericCrmSettings, context: WebhookContext<GenericCrmSettings>, section: WebhooksSection, target: WebhookTarget): Promise<WebhookRegistration[]> {
  const list = section.register!.list;
  const answer = await send({ ...context, settings }, list.request, variablesOf(target));
  const records = list.records ? getPath(answer.body, list.records) : answer.body;
  const all = await Promise.all((Array.isArray(records) ? records : []).map(async (record) => {
    const id = await field(record, list.id);
    const events = await field(record, list.events);
    return {
      id: id === undefined || id === null ? null : String(id),
      url: String((await field(record, list.url)) ?? ''),
      events: Array.isArray(events) ? events.map(String) : events === undefined || events === null ? [] : [String(events)],
    };
  }));
  return all.filter((registration) => belongsTo(registration.url, target));
}

/** The registration calls this connection's hook path (any host; with or without a secret after it). */
export function belongsTo(url: string, target: WebhookTarget): boolean {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  const at = path.lastIndexOf(target.hookPath);
  if (at < 0) return false;
  const rest = path.slice(at + target.hookPath.length);
  return rest === '' || rest === '/' || /^\/[^/]+\/?$/.test(rest);
}

async function unregisterAll(settings: GenericCrmSettings, context: WebhookContext<GenericCrmSettings>, section: WebhooksSection, target: WebhookTarget): Promise<number> {
  const existing = await registrations(settings, context, section, target);
  for (const registration of existing) {
    await send({ ...context, settings }, section.register!.delete, variablesOf(target, { id: registration.id, url: registration.url, events: registration.events.join(',') }));
  }
  return existing.length;
}

/**
 * Webhooks of the generic CRM, as its preset describes them. Registering removes this connection's earlier
 * registrations first (any URL under its /hooks/{connection}), so registering twice leaves one, and a
 * changed secret replaces the old one.
 */
export const genericCrmWebhooks: WebhookCapability<GenericCrmSettings> = {
  verification,

  // called from the CLI, outside any run: each call's requests go through a session of its own
  async register(settings, context, target): Promise<WebhookRegisterResult> {
    const section = sectionOf(settings);
    const reason = manualReason(settings, section);
    if (reason) return manualSteps(section, target, reason);
    return withSession({ ...context, settings }, async (inSession) => {
      const replaced = await unregisterAll(settings, inSession, section!, target);
      for (const create of section!.register!.create) await send(inSession, create, variablesOf(target));
      const [registration] = await registrations(settings, inSession, section!, target);
      return { status: 'registered', registration: registration ?? { id: null, url: target.url, events: [] }, replaced };
    });
  },

  async list(settings, context, target) {
    const section = sectionOf(settings);
    if (manualReason(settings, section)) return null;
    return withSession({ ...context, settings }, (inSession) => registrations(settings, inSession, section!, target));
  },

  async unregister(settings, context, target) {
    const section = sectionOf(settings);
    const reason = manualReason(settings, section);
    if (reason) return manualSteps(section, target, reason);
    return withSession({ ...context, settings }, async (inSession) => ({ removed: await unregisterAll(settings, inSession, section!, target) }));
  },
};
