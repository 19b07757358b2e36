import { PaginatorDefinition } from '../definition/stream-definition';
import { Requester, RequestSpec } from '../http/requester';
import { PageState } from './paginator';
import { RepeatGuard } from './repeat-guard';
import { createPaginator } from './strategies';

/** Field lists and catalogs are short; a paginator that never ends is a preset error, not an account this large. */
const MAX_PAGES = 100;

/**
 * The items of a short list the CRM pages (a field list, a discovery list: amoCRM answers 50 fields a page), page
 * by page as `paginator` says; without one, the single answer's. `select` picks a page's items. A page without
 * items ends every paginator; with `endsOnItems: false` (a selector that may pick none of a page's items) only
 * the paginator's token or URL ends the list.
 */
export async function listItems(
  requester: Requester,
  request: RequestSpec,
  definition: PaginatorDefinition | undefined,
  /** 'write_back.field_list', for messages */
  what: string,
  select: (body: unknown) => Promise<unknown[]> | unknown[],
  endsOnItems = true,
): Promise<unknown[]> {
  const paginator = createPaginator(definition);
  const guard = new RepeatGuard(what);
  const inject = definition?.inject ?? (request.method === 'GET' ? 'query' : 'body');
  const items: unknown[] = [];
  let state: PageState | null = paginator.first();
  for (let page = 1; state; page++) {
    if (page > MAX_PAGES) throw new Error(`${what}: more than ${MAX_PAGES} pages; stopping`);
    const spec: RequestSpec = state.url
      ? { method: request.method, path: state.url, body: request.body, headers: request.headers }
      : {
        ...request,
        query: inject === 'query' ? { ...(request.query ?? {}), ...state.params } : request.query,
        body: inject === 'body' ? { ...((request.body as object) ?? {}), ...state.params } : request.body,
      };
    guard.beforeRequest(requester.describe(spec));
    const answer = await requester.send(spec);
    const found = await select(answer.body);
    items.push(...found);
    state = paginator.next(state, answer, endsOnItems ? found.length : answer.body ? 1 : 0);
  }
  return items;
}
