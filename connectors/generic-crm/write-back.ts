import jsonata from 'jsonata';
import type {
  AttributionValue, CheckResult, DealWrite, WriteBackPlan, WriteCapability, WriteContext, WriteOutcome,
} from 'tracker-sync/connector';
import { ErrorDefinition } from './definition/source-definition';
import { DEFAULT_SINCE_DAYS, WriteBackDefinition, WriteRequestDefinition } from './definition/write-back-definition';
import { Requester } from './http/requester';
import { RateBlockError, SourceError } from './http/source-error';
import { fetchFieldLabels } from './records/field-labels';
import { getPath } from './records/paths';
import { GenericCrmSettings } from './settings';
import { withSession, withSessionYielding } from './crm-session';
import { sourceSession } from './source-session';
import { ResolvedSource, resolveSource } from './source-config';
import { renderTemplate } from './templates';

/**
 * The generic CRM's write capability: `settings.write_back` (a preset's `request` and `field_list`, the
 * user's `fields`) turned into update requests, batch by batch, through the same requester as the reads
 * (auth, rate limit, retries, redaction).
 */
export const genericCrmWrite: WriteCapability<GenericCrmSettings> = {
  plan(settings): WriteBackPlan | null {
    const writeBack = resolveSource(settings).write_back;
    if (!writeBack?.fields || Object.keys(writeBack.fields).length === 0) return null;
    const fields: Partial<Record<AttributionValue, string>> = {};
    for (const [value, field] of Object.entries(writeBack.fields)) fields[value as AttributionValue] = String(field);
    return { fields, sinceDays: writeBack.since_days ?? DEFAULT_SINCE_DAYS, schedule: writeBack.schedule };
  },

  checkFields: (settings, context) => withSession({ ...context, settings }, checkFields),

  write: (deals, context) => withSessionYielding(context, (inSession) => writeDeals(deals, inSession)),
};

async function checkFields(context: WriteContext<GenericCrmSettings>): Promise<CheckResult> {
  try {
    const { writeBack, requester } = writeSession(context);
    const keys = await resolveFieldKeys(writeBack, requester);
    const listed = writeBack.field_list?.request?.path ? 'found in the CRM\'s field list' : 'taken as given (no field_list to check them against)';
    return { ok: true, message: `write_back: ${Object.entries(keys).map(([v, k]) => `${v} → ${k}`).join(', ')} (${listed})` };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** The deals' values, batch by batch, through the requester of the session in `context`. */
async function* writeDeals(deals: DealWrite[], context: WriteContext<GenericCrmSettings>): AsyncGenerator<WriteOutcome[]> {
  const { writeBack, requester, errors, redact } = writeSession(context);
  const request = writeBack.request;
  if (!request?.path) throw new Error(`connection ${context.connectionId}: write_back.request.path is missing (no preset ships one: describe the update request)`);
  const keys = await resolveFieldKeys(writeBack, requester);
  const size = request.batch_size ?? 1;
  for (let start = 0; start < deals.length; start += size) {
    if (context.signal?.aborted) return;
    yield await writeBatch(deals.slice(start, start + size), keys, request, requester, (error) => redact(crmMessage(error, errors) ?? error.reason));
  }
}

function writeSession(context: WriteContext<GenericCrmSettings>): { writeBack: WriteBackDefinition; requester: Requester; errors: ErrorDefinition[]; redact: (text: string) => string } {
  const session = sourceSession(context);
  const source = session.source as ResolvedSource;
  const writeBack = source.write_back;
  if (!writeBack?.fields) throw new Error(`connection ${context.connectionId}: settings.write_back.fields is not set`);
  const visitField = Object.entries(writeBack.fields).find(([, field]) => String(field).toLowerCase() === source.visit_field.toLowerCase());
  if (visitField) {
    throw new Error(`write_back.fields.${visitField[0]}: "${visitField[1]}" is the visit_field: writing into it would change the visit number the deals are sent with`);
  }
  return { writeBack, requester: session.requester('write_back'), errors: source.errors ?? [], redact: (text) => session.redactor.redact(text) };
}

/**
 * Each configured field as the key the update takes: an exact key of the CRM's field list, else a field
 * whose name matches case-insensitively. Without a field list, the text as given.
 */
export async function resolveFieldKeys(writeBack: WriteBackDefinition, requester: Requester): Promise<Partial<Record<AttributionValue, string>>> {
  const wanted = Object.entries(writeBack.fields ?? {}).map(([value, field]) => [value as AttributionValue, String(field)] as const);
  const keys: Partial<Record<AttributionValue, string>> = {};
  if (!writeBack.field_list?.request?.path) {
    for (const [value, field] of wanted) keys[value] = field;
    return keys;
  }
  const labels = await fetchFieldLabels(writeBack.field_list, requester, 'write_back.field_list');
  for (const [value, field] of wanted) {
    const byName = [...labels].find(([, name]) => name.toLowerCase() === field.toLowerCase());
    const key = labels.has(field) ? field : byName?.[0];
    if (key === undefined) {
      const known = [...labels].slice(0, 20).map(([k, name]) => (k === name ? k : `${name} (${k})`)).join(', ');
      throw new Error(`write_back.fields.${value}: the CRM has no deal field "${field}" (its fields: ${known}${labels.size > 20 ? ', …' : ''})`);
    }
    keys[value] = key;
  }
  return keys;
}

async function writeBatch(
  batch: DealWrite[],
  keys: Partial<Record<AttributionValue, string>>,
  request: WriteRequestDefinition,
  requester: Requester,
  /** the text a refused batch's deals are rejected with */
  refusal: (error: SourceError) => string,
): Promise<WriteOutcome[]> {
  const deals = batch.map((deal) => {
    const entries = Object.entries(deal.values).map(([value, text]) => ({ id: keys[value as AttributionValue]!, value: text ?? '' }));
    return { id: deal.id, values: Object.fromEntries(entries.map((e) => [e.id, e.value])), fields: entries };
  });
  const variables = { deals, id: deals[0].id, values: deals[0].values, fields: deals[0].fields };
  let body: unknown;
  try {
    const answer = await requester.send({
      method: request.method ?? 'POST',
      path: String(await renderTemplate(request.path, variables)),
      query: request.query ? ((await renderTemplate(request.query, variables)) as Record<string, unknown>) : undefined,
      body: request.body === undefined ? undefined : await renderTemplate(request.body, variables),
      headers: request.headers,
      recordWrite: true,
    });
    body = answer.body;
  } catch (error) {
    if (!isRecordRefusal(error)) throw error;
    const reason = refusal(error);
    return batch.map((deal) => ({ id: deal.id, status: 'rejected' as const, reason }));
  }
  const refused = request.rejected ? await refusedInAnswer(request.rejected, body, deals) : new Map<string, string>();
  return batch.map((deal) =>
    refused.has(deal.id) ? { id: deal.id, status: 'rejected' as const, reason: refused.get(deal.id)! } : { id: deal.id, status: 'written' as const },
  );
}

/**
 * A 4xx answer (a 403 too: Pipedrive's refusal of an archived deal), or an error object in a 2xx one, refuses
 * the batch's deals; refused credentials, 429, 5xx and the network fail the run.
 */
function isRecordRefusal(error: unknown): error is SourceError {
  if (!(error instanceof SourceError) || error instanceof RateBlockError || error.credentialsRefused || error.status === undefined) return false;
  return error.status < 500 && error.status !== 429;
}

/** `HTTP 404: Deal not found`: the CRM's own message where the source's `errors` rules say where it is. */
function crmMessage(error: SourceError, rules: ErrorDefinition[]): string | undefined {
  for (const rule of rules) {
    const message = rule.message_path ? getPath(error.answer, rule.message_path) : undefined;
    if (typeof message === 'string' && message.trim() !== '') return `HTTP ${error.status}: ${message.trim()}`;
  }
  return undefined;
}

async function refusedInAnswer(expression: string, body: unknown, deals: { id: string }[]): Promise<Map<string, string>> {
  const found: unknown = await jsonata(expression.replace(/^=/, '')).evaluate(body ?? {}, { deals });
  const list = found === undefined || found === null ? [] : Array.isArray(found) ? found : [found];
  const refused = new Map<string, string>();
  for (const item of list as { id?: unknown; reason?: unknown }[]) {
    if (item?.id === undefined || item.id === null) continue;
    refused.set(String(item.id), item.reason === undefined ? 'the CRM refused the update' : String(item.reason));
  }
  return refused;
}
