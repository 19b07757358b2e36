import type { LeadRequestDefinition } from '../definition/lead-delivery-definition';
import { RequestSpec, Requester } from '../http/requester';
import { asList, readPages } from './list-pages';

/**
 * Every page of a look-up (`lead_delivery.requests.<name>.paginator`, a CRM action's): a look-up decides whether a
 * deal or a contact is created, so a match on the last page counts as much as one on the first, and a search that
 * cannot page past `reslice_at` fails it. Pages are counted by the request's `records`. Without a paginator the one
 * answer is the one page. Returns each page's `answer` (evaluated by the caller).
 */
export async function readLookupPages(
  request: LeadRequestDefinition,
  first: RequestSpec,
  requester: Requester,
  evaluate: (body: unknown) => Promise<unknown>,
  where: string,
): Promise<unknown[][]> {
  if (!request.paginator) return [asList(await evaluate((await requester.send(first)).body))];
  return readPages(requester, first, request.paginator, where, async (body) => asList(await evaluate(body)),
    { countPath: request.records, refuseReslice: true });
}
