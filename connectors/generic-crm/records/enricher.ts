import { ENRICH_FEATURES, EnrichDefinition, EnrichFeature, EnrichOptionalDefinition } from '../definition/stream-definition';
import { Requester, RequestSpec, SourceAnswer } from '../http/requester';
import { DailyLimitError, RateBlockError, SourceError } from '../http/source-error';
import { createPaginator } from '../pagination/strategies';
import { renderTemplate, TemplateVariables } from '../templates';
import { CompiledField, compileExpression, compileMapping, readFields } from './mapping';
import { compilePath, getPath, readPath } from './paths';

/**
 * "Fetch related by ids" (Airbyte's substream partition router, Singer's child streams): for one page of
 * records, the records' keys are sent in batches (per partition, each batch paged), the answers' records are
 * selected, mapped, and joined back to their record as `_related.<name>` (a list) for the stream's mapping.
 */

const DEFAULT_REFUSALS = [401, 403, 404];

/** One read's enrichments: what is switched off, what the CRM refused (warned once), compiled parts. */
export class EnrichSession {
  /** feature (or, for an enrichment of no feature, its name) -> why it is left out for the rest of the read */
  readonly unavailable = new Map<string, string>();
  private readonly compiled = new Map<EnrichDefinition, CompiledEnrich>();

  constructor(
    /** features the connection switched off (`products: false`) */
    readonly switchedOff: ReadonlySet<EnrichFeature>,
    private readonly warn: (message: string) => void,
    /** 'connection amo, stream deals' */
    private readonly where: string,
  ) {}

  /** Mapping fields of these names are not read: the feature is off or the CRM refused it. */
  leftOut(): ReadonlySet<string> {
    return new Set<string>([...this.switchedOff, ...[...this.unavailable.keys()].filter(isFeature)]);
  }

  skips(definition: EnrichDefinition): boolean {
    if (definition.feature && this.switchedOff.has(definition.feature)) return true;
    return this.unavailable.has(definition.feature ?? definition.name);
  }

  compile(definition: EnrichDefinition): CompiledEnrich {
    let found = this.compiled.get(definition);
    if (!found) {
      const where = `enrich ${definition.name}`;
      found = {
        key: reader(definition.key ?? 'id', `${where}.key`),
        records: reader(definition.records ?? '', `${where}.records`),
        match: reader(definition.match ?? 'id', `${where}.match`),
        commandId: definition.optional?.command_id ? reader(definition.optional.command_id, `${where}.optional.command_id`) : async (key) => key,
        mapping: definition.mapping ? compileMapping(definition.mapping, where) : null,
      };
      this.compiled.set(definition, found);
    }
    return found;
  }

  /** The first refusal of a feature in a read warns; the feature is then left out of every later page. */
  refuse(definition: EnrichDefinition, answer: string): void {
    const what = definition.feature ?? definition.name;
    const advice = grantFor(definition, answer);
    const grant = advice ? ` To send them: ${advice}.` : '';
    const rest = definition.feature ? `The deals are sent without ${what}.` : 'The records are read without it.';
    const reason = `${what} left out: enrichment ${definition.name} was refused (${answer}).${grant} ${rest}`;
    this.unavailable.set(what, reason);
    this.warn(`${this.where}: ${reason}`);
  }

  /**
   * Features left out of this one record (a command of a batch failed for it: a catalog product deleted since the
   * deal was saved, a deal deleted since the list), each warned naming the record; its other features still go.
   */
  async leftOutOf(item: Record<string, unknown>, name: () => Promise<string>): Promise<ReadonlySet<string>> {
    const failed = item[LEFT_OUT] as Record<string, string> | undefined;
    if (!failed) return this.leftOut();
    const record = await name();
    for (const [what, reason] of Object.entries(failed)) this.warn(`${this.where}: ${record}: ${what} left out for it alone: ${reason}`);
    return new Set([...this.leftOut(), ...Object.keys(failed)]);
  }
}

/** The advice of `grants` whose text the refusal names, else `grant`: a missing right is not a missing scope. */
function grantFor(definition: EnrichDefinition, answer: string): string | undefined {
  const byCause = Object.entries(definition.optional?.grants ?? {}).find(([text]) => answer.includes(text));
  return byCause ? byCause[1] : definition.optional?.grant;
}

/** where a record keeps the features a failed command left out of it alone (feature -> reason) */
const LEFT_OUT = '_left_out';

const isFeature = (name: string): name is EnrichFeature => (ENRICH_FEATURES as readonly string[]).includes(name);

interface CompiledEnrich {
  key(record: unknown): Promise<unknown>;
  records(answer: unknown): Promise<unknown>;
  match(record: unknown): Promise<unknown>;
  /** a failed command's key -> the key of the records it was for */
  commandId(key: string): Promise<unknown>;
  mapping: CompiledField[] | null;
}

function reader(source: string, where: string): (record: unknown) => Promise<unknown> {
  if (source.startsWith('=')) return compileExpression(source.slice(1), where);
  const path = compilePath(source);
  return async (record) => readPath(record, path);
}

interface Key {
  id: string;
  partition: string;
}

/** A record's keys: one value or a list; `{ id, partition }` objects carry their partition. */
function keysOf(value: unknown): Key[] {
  const items = Array.isArray(value) ? value : [value];
  const keys: Key[] = [];
  for (const item of items) {
    if (item === undefined || item === null || item === '') continue;
    if (typeof item === 'object') {
      const { id, partition } = item as { id?: unknown; partition?: unknown };
      if (id !== undefined && id !== null && id !== '') keys.push({ id: String(id), partition: partition == null ? '' : String(partition) });
    } else {
      keys.push({ id: String(item), partition: '' });
    }
  }
  return keys;
}

export async function enrichPage(
  records: Record<string, unknown>[],
  definition: EnrichDefinition,
  requester: Requester,
  variables: TemplateVariables,
  session: EnrichSession,
): Promise<void> {
  if (session.skips(definition)) return;
  const compiled = session.compile(definition);
  const recordKeys = await Promise.all(records.map(async (record) => keysOf(await compiled.key(record))));
  const byPartition = new Map<string, Set<string>>();
  for (const key of recordKeys.flat()) {
    if (!byPartition.has(key.partition)) byPartition.set(key.partition, new Set());
    byPartition.get(key.partition)!.add(key.id);
  }
  const related = new Map<string, unknown[]>();
  /** keys whose command failed alone -> the CRM's answer */
  const failed = new Map<string, string>();
  const batchSize = definition.batch_size ?? 100;
  try {
    for (const [partition, idSet] of byPartition) {
      const ids = [...idSet];
      for (let start = 0; start < ids.length; start += batchSize) {
        const batch = { ...variables, ids: ids.slice(start, start + batchSize), partition: partition || undefined };
        let pending = new Map<string, string>();
        const tokens = new Set<string>();
        for (let after: Record<string, string> | undefined; ; ) {
          for await (const item of fetchBatch(definition, compiled, requester, after ? { ...batch, after } : batch, failed)) {
            const owners = keysOf(await compiled.match(item));
            const value = compiled.mapping ? await readFields(compiled.mapping, item) : item;
            for (const key of owners) {
              const list = related.get(key.id);
              if (list) list.push(value);
              else related.set(key.id, [value]);
            }
            const token = definition.record_paging ? getPath(item, definition.record_paging) : undefined;
            if (token !== undefined && token !== null && token !== '' && owners.length) pending.set(owners[0].id, String(token));
          }
          if (pending.size === 0) break;
          for (const [id, token] of pending) {
            if (tokens.has(`${id} ${token}`)) throw new Error(`enrich ${definition.name}: record ${id} came back with page token ${token} again`);
            tokens.add(`${id} ${token}`);
          }
          // the next request: only the keys with more, each with its token
          after = Object.fromEntries(pending);
          batch.ids = [...pending.keys()];
          pending = new Map();
        }
      }
    }
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    session.refuse(definition, error.message);
    return;
  }
  const what = definition.feature ?? definition.name;
  for (const [index, record] of records.entries()) {
    const previous = (record._related as Record<string, unknown> | undefined) ?? {};
    record._related = { ...previous, [definition.name]: recordKeys[index].flatMap((key) => related.get(key.id) ?? []) };
    const failure = recordKeys[index].map((key) => failed.get(key.id)).find((reason) => reason !== undefined);
    if (failure) record[LEFT_OUT] = { [what]: failure, ...((record[LEFT_OUT] as object | undefined) ?? {}) };
  }
}

/**
 * `check`: the enrichment's `probe` request sent on its own, refused as the enrichment would be (the session
 * warns once and leaves the feature out). Nothing when it has no probe or is left out already.
 */
export async function probeEnrichment(definition: EnrichDefinition, requester: Requester, session: EnrichSession): Promise<void> {
  const probe = definition.probe;
  if (!probe?.path || session.skips(definition)) return;
  const spec: RequestSpec = { method: probe.method ?? 'GET', path: probe.path, query: probe.query, body: probe.body, headers: probe.headers };
  try {
    await send(definition, requester, spec);
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    session.refuse(definition, error.message);
  }
}

class Refused extends Error {}

/** One batch's related records, page by page. */
async function* fetchBatch(
  definition: EnrichDefinition,
  compiled: CompiledEnrich,
  requester: Requester,
  variables: TemplateVariables,
  failed: Map<string, string>,
): AsyncGenerator<unknown> {
  const paginator = createPaginator(definition.paginator);
  const seen = new Set<string>();
  for (let state: ReturnType<typeof paginator.first> | null = paginator.first(); state; ) {
    const spec = await requestFor(definition, { ...variables, page: state.params }, state);
    const description = requester.describe(spec);
    if (seen.has(description)) throw new Error(`enrich ${definition.name}: the paginator came back to ${description}`);
    seen.add(description);
    const answer = await send(definition, requester, spec);
    for (const [key, reason] of commandErrors(definition, spec, answer)) failed.set(String(await compiled.commandId(key)), reason);
    const found = answer.body === null ? undefined : await compiled.records(answer.body);
    // a JSONata selector answers a single match as the object itself
    const items = Array.isArray(found) ? found : typeof found === 'object' && found !== null ? [found] : [];
    yield* items;
    state = paginator.next(state, answer, items.length);
  }
}

async function requestFor(definition: EnrichDefinition, variables: TemplateVariables, state: { params: Record<string, unknown>; url?: string }): Promise<RequestSpec> {
  const request = definition.request ?? {};
  const method = request.method ?? 'GET';
  const query = (await renderTemplate(request.query ?? {}, variables)) as Record<string, unknown>;
  let body = request.body === undefined ? undefined : await renderTemplate(request.body, variables);
  if (state.url) return { method, path: state.url, body, headers: request.headers };
  const inject = definition.paginator?.inject ?? (method === 'GET' ? 'query' : 'body');
  if (inject === 'body' && Object.keys(state.params).length) body = { ...((body as object) ?? {}), ...state.params };
  else if (inject === 'query') Object.assign(query, state.params);
  return { method, path: String(await renderTemplate(request.path ?? '', variables)), query, body, headers: request.headers };
}

/**
 * The CRM's answer in a refusal's reason, from "HTTP <status>" on. An answer the requester put in parentheses
 * ("the CRM does not serve … (HTTP 404: …)") loses its closing one too: the warning puts it in its own.
 */
export function refusalAnswer(reason: string): string {
  const at = reason.search(/HTTP \d+/);
  if (at < 0) return reason;
  const answer = reason.slice(at);
  return reason[at - 1] === '(' && answer.endsWith(')') ? answer.slice(0, -1) : answer;
}

/** Sends one request; an answer meaning "not granted / not enabled" for an enrichment of a feature is a Refused. */
async function send(definition: EnrichDefinition, requester: Requester, spec: RequestSpec): Promise<SourceAnswer> {
  const optional = definition.feature || definition.optional ? (definition.optional ?? {}) : null;
  let answer: SourceAnswer;
  try {
    answer = await requester.send(spec);
  } catch (error) {
    if (optional && error instanceof SourceError && isRefusal(error, optional)) {
      throw new Refused(refusalText(spec, error));
    }
    throw error;
  }
  if (optional?.error_path) {
    const errors = entries(getPath(answer.body, optional.error_path));
    const answered = optional.answers_path ? entries(getPath(answer.body, optional.answers_path)).length : 0;
    const refusing = (error: unknown) => (optional.body_contains ?? []).some((needle) => JSON.stringify(error).includes(needle));
    // the method itself refused (a missing scope or right fails every command alike); else each command is its records' own problem
    if (errors.length && answered === 0 && errors.every(([, error]) => refusing(error))) {
      throw new Refused(`${spec.method} ${shortPath(spec.path)} answered ${JSON.stringify(Object.fromEntries(errors)).slice(0, 200)}`);
    }
  }
  return answer;
}

/** The failed commands of a batch answer that did not refuse the whole request: [command key, reason]. */
function commandErrors(definition: EnrichDefinition, spec: RequestSpec, answer: SourceAnswer): [string, string][] {
  const path = definition.optional?.error_path;
  if (!path) return [];
  return entries(getPath(answer.body, path)).map(([key, error]) => [
    key, `enrichment ${definition.name}: command ${key} of ${spec.method} ${shortPath(spec.path)} answered ${JSON.stringify(error).slice(0, 200)}`,
  ]);
}

/** An object's entries; a list (Bitrix24 answers an empty map as `[]`) or nothing has none. */
function entries(value: unknown): [string, unknown][] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
}

/** An answer that means "not granted / not enabled" by the `optional` rule (default 401, 403, 404). */
export function isRefusal(error: SourceError, optional: EnrichOptionalDefinition): boolean {
  if (error instanceof RateBlockError || error instanceof DailyLimitError) return false;
  if (error.status !== undefined && (optional.statuses ?? DEFAULT_REFUSALS).includes(error.status)) return true;
  const text = `${error.reason} ${error.answer === undefined ? '' : JSON.stringify(error.answer)}`;
  return (optional.body_contains ?? []).some((needle) => text.includes(needle));
}

/** `GET /api/v4/users answered HTTP 403: …`: the token is good (other requests went), so no "credentials refused" preamble. */
export function refusalText(spec: RequestSpec, error: SourceError): string {
  // the token is good (the deals were read): only this endpoint refuses it, so no "credentials refused" preamble
  return `${spec.method} ${shortPath(spec.path)} answered ${refusalAnswer(error.reason).slice(0, 200)}`;
}

function shortPath(path: string): string {
  return path.replace(/^https?:\/\/[^/]+/i, '').split('?')[0];
}
