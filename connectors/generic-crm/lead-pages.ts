import type { LeadRequestDefinition } from './definition/lead-delivery-definition';
import { RequestSpec, Requester, SourceAnswer } from './http/requester';
import { PageState } from './pagination/paginator';
import { RepeatGuard } from './pagination/repeat-guard';
import { createPaginator } from './pagination/strategies';
import { getPath } from './records/paths';

/**
 * Every page of a lead-delivery look-up (`lead_delivery.requests.<name>.paginator`, the streams' paginators): a
 * look-up decides whether a deal or a contact is created, so a match on the last page counts as much as one on the
 * first. Without a paginator the one answer is the one page. Returns each page's `answer` (evaluated by the caller).
 */
export async function readLookupPages(
  request: LeadRequestDefinition,
  first: RequestSpec,
  requester: Requester,
  evaluate: (body: unknown) => Promise<unknown>,
  where: string,
): Promise<unknown[][]> {
  if (!request.paginator) return [asList(await evaluate((await requester.send(first)).body))];
  const definition = request.paginator;
  const paginator = createPaginator(definition);
  const guard = new RepeatGuard(where);
  const inject = definition.inject ?? (first.method === 'GET' ? 'query' : 'body');
  const pages: unknown[][] = [];
  for (let state: PageState | null = paginator.first(); state;) {
    const spec = pageRequest(first, state, inject);
    guard.beforeRequest(requester.describe(spec));
    const answer = await requester.send(spec);
    const page = asList(await evaluate(answer.body));
    pages.push(page);
    state = paginator.next(state, answer, itemCount(request, answer, page));
    const offset = state && definition.reslice_at && definition.token_param ? Number(state.params[definition.token_param]) : NaN;
    if (offset >= definition.reslice_at!) {
      throw new Error(`${where}: more than ${definition.reslice_at} matches, and the CRM's search pages no further: the look-up cannot see every match, so nothing is decided on part of them`);
    }
  }
  return pages;
}

function pageRequest(first: RequestSpec, state: PageState, inject: 'query' | 'body' | 'none'): RequestSpec {
  if (state.url) return { method: first.method, path: state.url, body: first.body, headers: first.headers };
  return {
    ...first,
    query: inject === 'query' ? { ...(first.query ?? {}), ...state.params } : first.query,
    body: inject === 'body' ? { ...((first.body as object) ?? {}), ...state.params } : first.body,
  };
}

/** What the paginator counts: the page's items (`records`), not the matches the answer kept of them. */
function itemCount(request: LeadRequestDefinition, answer: SourceAnswer, page: unknown[]): number {
  return request.records === undefined ? page.length : asList(getPath(answer.body, request.records)).length;
}

export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
