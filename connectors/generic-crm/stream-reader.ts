import type { Deal } from '../../src/connectors/canonical';
import type { Page, ReadContext, ReadCursor, RejectedInput } from '../../src/connectors/connector-definition';
import { formatDate } from './dates';
import { Requester, RequestSpec } from './http/requester';
import { excerpt, SourceError } from './http/source-error';
import { PageState } from './pagination/paginator';
import { RepeatGuard } from './pagination/repeat-guard';
import { Reslicer } from './pagination/reslicer';
import { BuildResult, buildRecord } from './records/canonical-builder';
import { FieldError } from './records/field-values';
import { CustomFieldReader } from './records/custom-fields';
import { enrichPage } from './records/enricher';
import { readFields } from './records/mapping';
import { getPath } from './records/paths';
import { ResolvedSource } from './source-config';
import { customFieldReader, StreamPlan } from './stream-plan';
import { renderTemplate, TemplateVariables } from './templates';

export interface StreamReadInputs {
  plan: StreamPlan;
  source: ResolvedSource;
  requester: Requester;
  cursor: ReadCursor;
  context: ReadContext;
  /** 'connection amo, stream deals' */
  where: string;
  redact(text: string): string;
}

interface ReadStats {
  pages: number;
  read: number;
  rejected: number;
  withoutVisit: number;
  outsideWindow: number;
}

/** Reads one stream page by page: request → select → enrich → map → canonical records. */
export async function* readStream(inputs: StreamReadInputs): AsyncGenerator<Page> {
  const { plan, requester, cursor, context } = inputs;
  const custom = await customFieldReader(plan, requester);
  const guard = new RepeatGuard(inputs.where);
  const reslice = new Reslicer(plan, cursor.since ?? new Date(0), inputs.where);
  const stats: ReadStats = { pages: 0, read: 0, rejected: 0, withoutVisit: 0, outsideWindow: 0 };
  let state = plan.paginator.first();
  while (!context.signal?.aborted) {
    const spec = await requestFor(inputs, state, reslice.sliceStart);
    const description = requester.describe(spec);
    guard.beforeRequest(description);
    const answer = await requester.send(spec);
    const raw = selectRecords(answer.body, plan.definition.records ?? '', answer.url);
    if (raw.length > 0) guard.afterPage(JSON.stringify(raw), description);
    stats.pages++;
    const page = await mapPage(inputs, raw, custom, stats, reslice);
    if (page.records.length > 0 || (page.rejected ?? []).length > 0) yield page;
    if (context.limit !== undefined && stats.read >= context.limit) break;
    const next = plan.paginator.next(state, answer, raw.length);
    if (!next) break;
    state = reslice.shouldRestart(next) ? plan.paginator.first() : next;
  }
  logSummary(inputs, stats);
}

async function requestFor(inputs: StreamReadInputs, state: PageState, sliceStart: Date): Promise<RequestSpec> {
  const { plan, source, cursor } = inputs;
  const request = plan.definition.request ?? {};
  const method = request.method ?? 'GET';
  const variables: TemplateVariables = {
    cursor: formatDate(sliceStart, plan.cursorFormat.format, plan.cursorFormat.timezone),
    until: formatDate(cursor.until, plan.cursorFormat.format, plan.cursorFormat.timezone),
    visit_field: source.visit_field,
    page_size: plan.definition.paginator?.page_size,
  };
  const query = (await renderTemplate(request.query ?? {}, variables)) as Record<string, unknown>;
  let body = request.body === undefined ? undefined : await renderTemplate(request.body, variables);
  if (state.url) return { method, path: state.url, body, headers: request.headers };
  const inject = plan.definition.paginator?.inject ?? (method === 'GET' ? 'query' : 'body');
  if (inject === 'body') body = { ...((body as object) ?? {}), ...state.params };
  else Object.assign(query, state.params);
  const path = String(await renderTemplate(request.path ?? '', variables));
  return { method, path, query, body, headers: request.headers };
}

function selectRecords(body: unknown, path: string, url: string): Record<string, unknown>[] {
  if (body === null || body === undefined) return [];
  const found = getPath(body, path);
  if (found === undefined || found === null) return [];
  if (!Array.isArray(found)) {
    throw new SourceError(url, `records path ${JSON.stringify(path)} holds ${typeof found}, not a list`);
  }
  return found as Record<string, unknown>[];
}

async function mapPage(
  inputs: StreamReadInputs,
  raw: Record<string, unknown>[],
  custom: CustomFieldReader | null,
  stats: ReadStats,
  reslice: Reslicer,
): Promise<Page> {
  const { plan, requester, cursor } = inputs;
  const selected = plan.filter ? await filterRecords(raw, plan.filter) : raw;
  for (const enrich of plan.definition.enrich ?? []) {
    await enrichPage(selected, enrich, requester, { visit_field: inputs.source.visit_field });
  }
  const page: Page & { rejected: RejectedInput[] } = { records: [], refs: [], rejected: [] };
  for (const [index, item] of selected.entries()) {
    const ref = `${plan.stream} page ${stats.pages} item ${index + 1}`;
    const result = await mapRecord(plan, item, custom);
    if (result.rejected) {
      const rawText = inputs.redact(excerpt(JSON.stringify(item)));
      page.rejected.push({ ...result.rejected, ref, excerpt: rawText });
      stats.rejected++;
      continue;
    }
    const record = result.record as Deal;
    if (!inWindow(record, cursor, plan.incremental)) {
      stats.outsideWindow++;
      continue;
    }
    if (reslice.isDuplicate(record)) continue;
    if (plan.stream === 'deals' && !record.visit_id) stats.withoutVisit++;
    page.records.push(record);
    page.refs!.push(ref);
    stats.read++;
  }
  return page;
}

async function mapRecord(plan: StreamPlan, item: Record<string, unknown>, custom: CustomFieldReader | null): Promise<BuildResult> {
  try {
    return buildRecord(plan.stream, await readFields(plan.fields, item), custom?.read(item) ?? [], plan.build);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return { rejected: { id: await idOf(plan, item), field: error.field, reason: error.message } };
  }
}

async function idOf(plan: StreamPlan, item: Record<string, unknown>): Promise<string> {
  try {
    const id = await plan.fields.find((field) => field.name === 'id')?.read(item);
    return id === undefined || id === null ? '' : String(id);
  } catch {
    return '';
  }
}

async function filterRecords(
  records: Record<string, unknown>[],
  filter: (record: unknown) => Promise<unknown>,
): Promise<Record<string, unknown>[]> {
  const kept: Record<string, unknown>[] = [];
  for (const record of records) if (await filter(record)) kept.push(record);
  return kept;
}

/** Sources without a server-side filter (Pipedrive) are filtered here; the signpost holds later changes back. */
function inWindow(record: { updated_at?: Date | null }, cursor: ReadCursor, incremental: boolean): boolean {
  if (!incremental || !record.updated_at) return true;
  const time = record.updated_at.getTime();
  return (!cursor.since || time >= cursor.since.getTime()) && time <= cursor.until.getTime();
}

function logSummary(inputs: StreamReadInputs, stats: ReadStats): void {
  const parts = [`${stats.read} records in ${stats.pages} pages`, `${stats.rejected} rejected`];
  if (stats.outsideWindow > 0) parts.push(`${stats.outsideWindow} outside the window`);
  if (inputs.plan.stream === 'deals') {
    parts.push(`${stats.withoutVisit} deals without a visit number (field ${JSON.stringify(inputs.source.visit_field)})`);
  }
  const message = `${inputs.where}: read ${parts.join(', ')}`;
  if (inputs.plan.stream === 'deals' && stats.withoutVisit > 0) inputs.context.logger.warn(message);
  else inputs.context.logger.log(message);
}
