import { PaginatorDefinition } from '../definition/stream-definition';
import { Requester, RequestSpec } from '../http/requester';
import { getPath } from '../records/paths';
import { PageState } from './paginator';
import { RepeatGuard } from './repeat-guard';
import { createPaginator } from './strategies';

/** Field lists and catalogs are short; a paginator that never ends is a preset error, not an account this large. */
const MAX_PAGES = 100;

export interface PageReading {
  /** counts a page by the items at this dotted path of the answer (what the CRM sent), not by what `select` kept */
  countPath?: string;
  /** false: a selector that may pick none of a page's items; only the paginator's token or URL ends the pages */
  endsOnItems?: boolean;
  /** more pages than this fail the read */
  maxPages?: number;
  /** a next offset at the paginator's `reslice_at` fails the read: a look-up must not decide on part of its matches */
  refuseReslice?: boolean;
}

/**
 * Every page of a request the CRM pages, as `paginator` says (the streams' paginators); without one, the single
 * answer. Returns what `select` picks of each page, page by page. A page without items ends every paginator
 * (see `PageReading` for how a page is counted).
 */
export async function readPages(
  requester: Requester,
  request: RequestSpec,
  definition: PaginatorDefinition | undefined,
  /** 'write_back.field_list', for messages */
  what: string,
  select: (body: unknown) => Promise<unknown[]> | unknown[],
  reading: PageReading = {},
): Promise<unknown[][]> {
  const { countPath, endsOnItems = true, maxPages, refuseReslice } = reading;
  const paginator = createPaginator(definition);
  const guard = new RepeatGuard(what);
  const resliceAt = refuseReslice && definition?.token_param ? definition.reslice_at : undefined;
  const inject = definition?.inject ?? (request.method === 'GET' ? 'query' : 'body');
  const pages: unknown[][] = [];
  let state: PageState | null = paginator.first();
  for (let page = 1; state; page++) {
    if (maxPages !== undefined && page > maxPages) throw new Error(`${what}: more than ${maxPages} pages; stopping`);
    const spec = pageRequest(request, state, inject);
    guard.beforeRequest(requester.describe(spec));
    const answer = await requester.send(spec);
    const found = await select(answer.body);
    pages.push(found);
    const count = countPath !== undefined ? asList(getPath(answer.body, countPath)).length : endsOnItems ? found.length : answer.body ? 1 : 0;
    state = paginator.next(state, answer, count);
    if (resliceAt && state && Number(state.params[definition!.token_param!]) >= resliceAt) {
      throw new Error(`${what}: more than ${resliceAt} matches, and the CRM's search pages no further: the look-up cannot see every match, so nothing is decided on part of them`);
    }
  }
  return pages;
}

/**
 * The items of a short list the CRM pages (a field list, a discovery list: amoCRM answers 50 fields a page), at most
 * MAX_PAGES pages. `select` picks a page's items; `endsOnItems: false` as in `PageReading`.
 */
export async function listItems(
  requester: Requester,
  request: RequestSpec,
  definition: PaginatorDefinition | undefined,
  what: string,
  select: (body: unknown) => Promise<unknown[]> | unknown[],
  endsOnItems = true,
): Promise<unknown[]> {
  return (await readPages(requester, request, definition, what, select, { endsOnItems, maxPages: MAX_PAGES })).flat();
}

function pageRequest(request: RequestSpec, state: PageState, inject: 'query' | 'body' | 'none'): RequestSpec {
  if (state.url) return { method: request.method, path: state.url, body: request.body, headers: request.headers };
  return {
    ...request,
    query: inject === 'query' ? { ...(request.query ?? {}), ...state.params } : request.query,
    body: inject === 'body' ? { ...((request.body as object) ?? {}), ...state.params } : request.body,
  };
}

export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
