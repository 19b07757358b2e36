import { ENRICH_FEATURES, EnrichDefinition, EnrichFeature } from '../definition/stream-definition';
import { Requester, RequestSpec, SourceAnswer } from '../http/requester';
import { SourceError } from '../http/source-error';
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
        mapping: definition.mapping ? compileMapping(definition.mapping, where) : null,
      };
      this.compiled.set(definition, found);
    }
    return found;
  }

  /** The first refusal of a feature in a read warns; the feature is then left out of every later page. */
  refuse(definition: EnrichDefinition, answer: string): void {
    const what = definition.feature ?? definition.name;
    const grant = definition.optional?.grant ? ` To send them: ${definition.optional.grant}.` : '';
    const rest = definition.feature ? `The deals are sent without ${what}.` : 'The records are read without it.';
    const reason = `${what} left out: enrichment ${definition.name} was refused (${answer}).${grant} ${rest}`;
    this.unavailable.set(what, reason);
    this.warn(`${this.where}: ${reason}`);
  }
}

const isFeature = (name: string): name is EnrichFeature => (ENRICH_FEATURES as readonly string[]).includes(name);

interface CompiledEnrich {
  key(record: unknown): Promise<unknown>;
  records(answer: unknown): Promise<unknown>;
  match(record: unknown): Promise<unknown>;
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
  const batchSize = definition.batch_size ?? 100;
  try {
    for (const [partition, idSet] of byPartition) {
      const ids = [...idSet];
      for (let start = 0; start < ids.length; start += batchSize) {
        const batch = { ...variables, ids: ids.slice(start, start + batchSize), partition: partition || undefined };
        for await (const item of fetchBatch(definition, compiled, requester, batch)) {
          const owner = await compiled.match(item);
          const value = compiled.mapping ? await readFields(compiled.mapping, item) : item;
          for (const key of keysOf(owner)) {
            const list = related.get(key.id);
            if (list) list.push(value);
            else related.set(key.id, [value]);
          }
        }
      }
    }
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    session.refuse(definition, error.message);
    return;
  }
  for (const [index, record] of records.entries()) {
    const previous = (record._related as Record<string, unknown> | undefined) ?? {};
    record._related = { ...previous, [definition.name]: recordKeys[index].flatMap((key) => related.get(key.id) ?? []) };
  }
}

class Refused extends Error {}

/** One batch's related records, page by page. */
async function* fetchBatch(
  definition: EnrichDefinition,
  compiled: CompiledEnrich,
  requester: Requester,
  variables: TemplateVariables,
): AsyncGenerator<unknown> {
  const paginator = createPaginator(definition.paginator);
  const seen = new Set<string>();
  for (let state: ReturnType<typeof paginator.first> | null = paginator.first(); state; ) {
    const spec = await requestFor(definition, { ...variables, page: state.params }, state);
    const description = requester.describe(spec);
    if (seen.has(description)) throw new Error(`enrich ${definition.name}: the paginator came back to ${description}`);
    seen.add(description);
    const answer = await send(definition, requester, spec);
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
      // the token is good (the deals were read): only this endpoint refuses it, so no "credentials refused" preamble
      throw new Refused(`${spec.method} ${shortPath(spec.path)} answered ${refusalAnswer(error.reason).slice(0, 200)}`);
    }
    throw error;
  }
  if (optional?.error_path) {
    const refusal = getPath(answer.body, optional.error_path);
    if (refusal !== undefined && refusal !== null && refusal !== '' && !(Array.isArray(refusal) && refusal.length === 0)) {
      throw new Refused(`${spec.method} ${shortPath(spec.path)} answered ${JSON.stringify(refusal).slice(0, 200)}`);
    }
  }
  return answer;
}

function isRefusal(error: SourceError, optional: NonNullable<EnrichDefinition['optional']>): boolean {
  if (error.status !== undefined && (optional.statuses ?? DEFAULT_REFUSALS).includes(error.status)) return true;
  const text = `${error.reason} ${error.answer === undefined ? '' : JSON.stringify(error.answer)}`;
  return (optional.body_contains ?? []).some((needle) => text.includes(needle));
}

function shortPath(path: string): string {
  return path.replace(/^https?:\/\/[^/]+/i, '').split('?')[0];
}
