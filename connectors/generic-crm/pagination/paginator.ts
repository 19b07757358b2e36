import { SourceAnswer } from '../http/requester';

/** What the next request needs: parameters to inject (query or body), or a full URL taken from the answer. */
export interface PageState {
  params: Record<string, unknown>;
  url?: string;
}

/** A pagination strategy (after Airbyte's page_increment / offset_increment / cursor_pagination_strategy). */
export interface Paginator {
  first(): PageState;
  /** the next page, or null when this answer was the last one */
  next(current: PageState, answer: SourceAnswer, recordCount: number, records?: unknown[]): PageState | null;
}
