import { PaginatorDefinition } from '../definition/stream-definition';
import { SourceAnswer } from '../http/requester';
import { getPath } from '../records/paths';
import { Paginator, PageState } from './paginator';

/** Every strategy ends on an empty page (or a 204, which has no records). */

export class NoPagination implements Paginator {
  first(): PageState {
    return { params: {} };
  }
  next(): null {
    return null;
  }
}

function sizeParams(definition: PaginatorDefinition): Record<string, unknown> {
  return definition.size_param && definition.page_size ? { [definition.size_param]: definition.page_size } : {};
}

function isLastByCount(definition: PaginatorDefinition, recordCount: number): boolean {
  if (recordCount === 0) return true;
  const shortPageEnds = definition.stop_on_short_page ?? true;
  return shortPageEnds && !!definition.page_size && recordCount < definition.page_size;
}

export class PageNumberPagination implements Paginator {
  private readonly param: string;
  constructor(private readonly definition: PaginatorDefinition) {
    this.param = definition.page_param ?? 'page';
  }
  first(): PageState {
    return { params: { ...sizeParams(this.definition), [this.param]: this.definition.start_page ?? 1 } };
  }
  next(current: PageState, answer: SourceAnswer, recordCount: number): PageState | null {
    if (isLastByCount(this.definition, recordCount)) return null;
    const page = Number(current.params[this.param]);
    // the answer says how many pages there are: no request for an empty page after a full last one
    const total = this.definition.total_pages_path ? Number(getPath(answer.body, this.definition.total_pages_path)) : NaN;
    if (Number.isFinite(total) && page >= total) return null;
    return { params: { ...current.params, [this.param]: page + 1 } };
  }
}

export class OffsetPagination implements Paginator {
  private readonly param: string;
  constructor(private readonly definition: PaginatorDefinition) {
    this.param = definition.offset_param ?? 'offset';
  }
  first(): PageState {
    return { params: { ...sizeParams(this.definition), [this.param]: 0 } };
  }
  next(current: PageState, _answer: SourceAnswer, recordCount: number): PageState | null {
    if (isLastByCount(this.definition, recordCount)) return null;
    return { params: { ...current.params, [this.param]: Number(current.params[this.param]) + recordCount } };
  }
}

/** A token from the body sent back as a parameter (Bitrix24 `next`, Pipedrive `next_start`, HubSpot `after`). */
export class CursorTokenPagination implements Paginator {
  constructor(private readonly definition: PaginatorDefinition) {
    if (!definition.token_path || !definition.token_param) {
      throw new Error('paginator cursor needs token_path and token_param');
    }
  }
  first(): PageState {
    return { params: sizeParams(this.definition) };
  }
  next(current: PageState, answer: SourceAnswer, recordCount: number): PageState | null {
    const token = getPath(answer.body, this.definition.token_path!);
    if (recordCount === 0 || token === undefined || token === null || token === '' || token === false || isEmptyCollection(token)) return null;
    return { params: { ...current.params, [this.definition.token_param!]: token } };
  }
}

/** `[]` or `{}`: Bitrix24's batch answers `result_next: []` when no command has a next page. */
function isEmptyCollection(token: unknown): boolean {
  return typeof token === 'object' && token !== null && Object.keys(token).length === 0;
}

/**
 * The next page asks for records past the last one's key (Bitrix24's `filter[>id]` with `start=-1`, huge-data.md):
 * a record deleted or moved mid-read shifts no page. Ends on a short (or empty) page.
 */
export class KeysetPagination implements Paginator {
  constructor(private readonly definition: PaginatorDefinition) {
    if (!definition.key_field || !definition.token_param) throw new Error('paginator keyset needs key_field and token_param');
  }
  first(): PageState {
    return { params: sizeParams(this.definition) };
  }
  next(current: PageState, _answer: SourceAnswer, recordCount: number, records: unknown[] = []): PageState | null {
    if (isLastByCount(this.definition, recordCount)) return null;
    const key = getPath(records[records.length - 1], this.definition.key_field!);
    if (key === undefined || key === null || key === '') return null;
    return { params: { ...current.params, [this.definition.token_param!]: key } };
  }
}

/** The next page's URL in the body (amoCRM `_links.next.href`). */
export class NextUrlPagination implements Paginator {
  constructor(private readonly definition: PaginatorDefinition) {
    if (!definition.url_path) throw new Error('paginator next_url needs url_path');
  }
  first(): PageState {
    return { params: sizeParams(this.definition) };
  }
  next(_current: PageState, answer: SourceAnswer, recordCount: number): PageState | null {
    const url = getPath(answer.body, this.definition.url_path!);
    if (recordCount === 0 || typeof url !== 'string' || url === '') return null;
    return { params: {}, url };
  }
}

/** RFC 8288 `Link: <...>; rel="next"`. */
export class LinkHeaderPagination implements Paginator {
  constructor(private readonly definition: PaginatorDefinition) {}
  first(): PageState {
    return { params: sizeParams(this.definition) };
  }
  next(_current: PageState, answer: SourceAnswer, recordCount: number): PageState | null {
    const url = nextLink(answer.headers.link);
    if (recordCount === 0 || !url) return null;
    return { params: {}, url };
  }
}

function nextLink(header: string | undefined): string | null {
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>\s*;(.*)/.exec(part.trim());
    if (match && /rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2])) return match[1];
  }
  return null;
}

export function createPaginator(definition: PaginatorDefinition | undefined): Paginator {
  const d = definition ?? {};
  switch (d.type ?? 'none') {
    case 'none':
      return new NoPagination();
    case 'page_number':
      return new PageNumberPagination(d);
    case 'offset':
      return new OffsetPagination(d);
    case 'cursor':
      return new CursorTokenPagination(d);
    case 'next_url':
      return new NextUrlPagination(d);
    case 'link_header':
      return new LinkHeaderPagination(d);
    case 'keyset':
      return new KeysetPagination(d);
  }
}
