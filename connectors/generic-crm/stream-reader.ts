import type { Page, ReadContext, SourceProgress } from 'tracker-sync/connector';
import { saveStageCounts } from './discovery/stage-counts';
import { formatDate } from './dates';
import { RequestSpec, SourceAnswer } from './http/requester';
import { SourceError } from './http/source-error';
import { mapEmbedded, mapPage, PageInputs, ReadStats } from './page-mapper';
import { PageSpill, RawPage, SpillWriter } from './page-spill';
import { PaginatorDefinition, RequestDefinition } from './definition/stream-definition';
import { Paginator, PageState } from './pagination/paginator';
import { RepeatGuard } from './pagination/repeat-guard';
import { Reslicer } from './pagination/reslicer';
import { isRefusal, refusalText } from './records/enricher';
import { getPath } from './records/paths';
import { mappedStatus } from './records/status-map';
import { customFieldReader } from './stream-plan';
import { renderTemplate, TemplateVariables } from './templates';

export interface StreamReadInputs extends PageInputs {
  context: ReadContext;
  /** 'connection amo, stream deals' */
  where: string;
  /** this run's copy of the fetched pages on disk */
  spill: PageSpill;
  /** a later stream of this run reads the same pages: keep them in the spill */
  keepPages: boolean;
}

/**
 * Reads one stream page by page: request → select → enrich → map → canonical records. A `from` stream maps
 * the records embedded in the other stream's pages; pages another stream of the run fetched are replayed.
 */
export async function* readStream(inputs: StreamReadInputs): AsyncGenerator<Page> {
  const { plan, requester, cursor, context } = inputs;
  const custom = await customFieldReader(plan, requester);
  const reslice = new Reslicer(inputs.pages, cursor.since, inputs.where);
  const stats: ReadStats = { pages: 0, read: 0, rejected: 0, withoutVisit: 0, outsideWindow: 0, replayed: false, statuses: new Map() };
  const position = new SourcePosition();
  for await (const raw of rawPages(inputs, reslice, stats, position)) {
    stats.pages++;
    const page = plan === inputs.pages
      ? await mapPage(inputs, raw, custom, stats, reslice)
      : await mapEmbedded(inputs, raw, custom, stats, reslice);
    const progress = position.after(raw.length);
    if (progress) page.progress = progress;
    if (page.records.length > 0 || (page.rejected ?? []).length > 0) yield page;
    if (context.limit !== undefined && stats.read >= context.limit) break;
  }
  logSummary(inputs, stats);
  noticeUnmapped(inputs, stats);
  // a run's whole read (not a preview's or a check's few records), for a source whose stages can be listed
  const counted = plan.stream === 'deals' && inputs.source.discover && context.limit === undefined && !context.signal?.aborted;
  if (counted) await saveStageCounts(context.workDir, stats.statuses!);
}

/** The pages' raw records: replayed from this run's spill when it covers the window, else fetched (and spilled when needed). */
async function* rawPages(inputs: StreamReadInputs, reslice: Reslicer, stats: ReadStats, position: SourcePosition): AsyncGenerator<RawPage> {
  const { spill, cursor, context } = inputs;
  const replay = await spill.replay(cursor);
  if (replay) {
    stats.replayed = true;
    for await (const page of replay) {
      if (context.signal?.aborted) return;
      yield page;
    }
    if (!inputs.keepPages) await spill.remove();
    return;
  }
  // a run's read (not a preview or check) removes what an earlier, unfinished run left
  if (context.laterStreams) await spill.remove();
  const writer = inputs.keepPages ? await spill.create(cursor) : null;
  let complete = false;
  try {
    yield* fetchPages(inputs, reslice, writer, position);
    complete = !context.signal?.aborted;
  } finally {
    if (writer) await (complete ? writer.complete() : writer.discard());
  }
}

/** The stream's list, then each of its `more_requests`, every one paged to its end. */
async function* fetchPages(inputs: StreamReadInputs, reslice: Reslicer, writer: SpillWriter | null, position: SourcePosition): AsyncGenerator<RawPage> {
  const { pages: plan } = inputs;
  const guard = new RepeatGuard(inputs.where);
  const way = readWay(inputs);
  const lists: ReadWay[] = [
    way,
    ...(plan.definition.more_requests ?? []).map((more) => ({ ...mainWay(plan), request: mergedRequest(plan.definition.request ?? {}, more) })),
  ];
  for (const [index, list] of lists.entries()) {
    if (index > 0) {
      reslice.startOver(inputs.cursor.since);
      position.restarted(); // its total (total_path) adds to what the lists before it fetched
    }
    yield* fetchList(inputs, list, reslice, writer, position, guard);
  }
}

function mergedRequest(base: RequestDefinition, more: RequestDefinition): RequestDefinition {
  return { ...base, ...more, query: { ...(base.query ?? {}), ...(more.query ?? {}) } };
}

async function* fetchList(
  inputs: StreamReadInputs, way: ReadWay, reslice: Reslicer, writer: SpillWriter | null, position: SourcePosition, guard: RepeatGuard,
): AsyncGenerator<RawPage> {
  const { pages: plan, requester, context } = inputs;
  let state = way.paginator.first();
  while (!context.signal?.aborted) {
    const spec = await requestFor(inputs, way.request ?? {}, way.definition, state, reslice.sliceStart);
    const description = requester.describe(spec);
    guard.beforeRequest(description);
    const answer = await sendOrLeaveOut(inputs, spec);
    if (!answer) return;
    const raw = selectRecords(answer.body, plan.definition.records ?? '', answer.url);
    const totalPath = way.definition?.total_path;
    if (totalPath) position.answered(Number(getPath(answer.body, totalPath)));
    if (raw.length > 0) guard.afterPage(JSON.stringify(raw), description);
    await writer?.write(raw);
    yield raw;
    const next = way.paginator.next(state, answer, raw.length, raw);
    if (!next) return;
    if (reslice.shouldRestart(next, way.definition)) {
      state = way.paginator.first();
      position.restarted();
    } else {
      state = next;
    }
  }
}

/** One list of the stream: the request, its paginator and the paginator's settings. */
type ReadWay = { request: RequestDefinition | undefined; paginator: Paginator; definition: PaginatorDefinition | undefined };

/** A read without a cursor goes the stream's `first_read` way when it has one. */
function readWay(inputs: StreamReadInputs): ReadWay {
  const plan = inputs.pages;
  if (inputs.cursor.since === null && plan.firstRead) return plan.firstRead;
  return mainWay(plan);
}

function mainWay(plan: StreamReadInputs['pages']): ReadWay {
  return { request: plan.definition.request, paginator: plan.paginator, definition: plan.definition.paginator };
}

/**
 * The stream's `optional` answers (amoCRM's users to a token of no administrator: 403) end the stream with one
 * notice instead of failing the run: null. Never an incremental stream's: its cursor would pass what was not read.
 */
async function sendOrLeaveOut(inputs: StreamReadInputs, spec: RequestSpec): Promise<SourceAnswer | null> {
  const { optional, incremental } = inputs.pages.definition;
  try {
    return await inputs.requester.send(spec);
  } catch (error) {
    if (!optional || incremental || !(error instanceof SourceError) || !isRefusal(error, optional)) throw error;
    const grant = optional.grant ? ` ${optional.grant}.` : '';
    const message = `${inputs.where}: ${inputs.plan.stream} left out: ${refusalText(spec, error)}.${grant}`;
    (inputs.context.logger.notice ?? inputs.context.logger.warn)(message);
    return null;
  }
}

/**
 * How far the read is through what the source said it holds (paginator.total_path): records fetched so far of
 * the total. A restarted slice (reslice_at, reslice_each_page) answers the total of what is left: what came before is added.
 */
class SourcePosition {
  private fetched = 0;
  private before = 0;
  private total: number | null = null;

  answered(total: number): void {
    if (Number.isFinite(total) && total >= 0) this.total = this.before + total;
  }

  restarted(): void {
    this.before = this.fetched;
  }

  after(records: number): SourceProgress | undefined {
    this.fetched += records;
    if (this.total === null) return undefined;
    return { done: Math.min(this.fetched, this.total), total: this.total, unit: 'records' };
  }
}

async function requestFor(
  inputs: StreamReadInputs, request: RequestDefinition, paginator: PaginatorDefinition | undefined, state: PageState, sliceStart: Date | null,
): Promise<RequestSpec> {
  const { pages: plan, source, cursor } = inputs;
  const method = request.method ?? 'GET';
  const variables: TemplateVariables = {
    // undefined on a first run: a lone "{{cursor}}" is then left out of the request
    cursor: sliceStart ? formatDate(sliceStart, plan.cursorFormat.format, plan.cursorFormat.timezone) : undefined,
    until: formatDate(cursor.until, plan.cursorFormat.format, plan.cursorFormat.timezone),
    visit_field: source.visit_field,
    page_size: paginator?.page_size,
  };
  const query = (await renderTemplate(request.query ?? {}, variables)) as Record<string, unknown>;
  let body = request.body === undefined ? undefined : await renderTemplate(request.body, variables);
  if (state.url) return { method, path: state.url, body, headers: request.headers };
  const inject = paginator?.inject ?? (method === 'GET' ? 'query' : 'body');
  if (inject === 'body') body = { ...((body as object) ?? {}), ...state.params };
  else if (inject === 'query') Object.assign(query, state.params);
  const path = String(await renderTemplate(request.path ?? '', variables));
  return { method, path, query, body, headers: request.headers };
}

function selectRecords(body: unknown, path: string, url: string): Record<string, unknown>[] {
  if (body === null || body === undefined) return [];
  const found = getPath(body, path);
  if (found === null) return [];
  if (found === undefined) {
    throw new SourceError(url, `the answer has no records at ${JSON.stringify(path)} (the stream's records path): has the CRM's answer changed? Its keys: ${Object.keys(body as object).slice(0, 10).join(', ') || 'none'}`);
  }
  if (!Array.isArray(found)) {
    throw new SourceError(url, `records path ${JSON.stringify(path)} holds ${typeof found}, not a list`);
  }
  return found as Record<string, unknown>[];
}

/**
 * Deals of stages status_map has no key for (and no "*") go with the CRM's own stage id, which the project seldom
 * knows: the service then skips them (skipped_by_status). One notice a read names those stages and their deals.
 */
function noticeUnmapped(inputs: StreamReadInputs, stats: ReadStats): void {
  const map = inputs.plan.build.statusMap;
  if (inputs.plan.stream !== 'deals' || !map || !stats.statuses?.size || inputs.context.limit !== undefined) return;
  const unmapped = [...stats.statuses].filter(([stage]) => mappedStatus(map, stage) === undefined).sort((a, b) => b[1] - a[1]);
  if (!unmapped.length) return;
  const deals = unmapped.reduce((sum, [, count]) => sum + count, 0);
  const named = unmapped.slice(0, 10).map(([stage, count]) => `${JSON.stringify(stage)} (${count})`).join(', ');
  const message = `${inputs.where}: ${deals} ${deals === 1 ? 'deal' : 'deals'} read in stages status_map has no key for (nor "*"): they go with the CRM's `
    + `stage id, which the project's statuses may lack (skipped_by_status): ${named}${unmapped.length > 10 ? ', …' : ''}; map them in status_map`;
  (inputs.context.logger.notice ?? inputs.context.logger.warn)(message);
}

function logSummary(inputs: StreamReadInputs, stats: ReadStats): void {
  const { plan, pages } = inputs;
  const ofPages = plan === pages ? '' : ` of ${pages.stream}`;
  const replayed = stats.replayed ? ' (kept from an earlier stream of this run, not fetched again)' : '';
  const parts = [`${stats.read} records in ${stats.pages} pages${ofPages}${replayed}`, `${stats.rejected} rejected`];
  if (stats.outsideWindow > 0) parts.push(`${stats.outsideWindow} outside the window`);
  if (inputs.plan.stream === 'deals') {
    parts.push(`${stats.withoutVisit} deals without a visit number (field ${JSON.stringify(inputs.source.visit_field)})`);
  }
  // a line of the log, not a warning: deals re-read in the overlap are not sent again, and the engine warns
  // about the deals it sends without a visit number (sent_without_visit)
  inputs.context.logger.log(`${inputs.where}: read ${parts.join(', ')}`);
}
