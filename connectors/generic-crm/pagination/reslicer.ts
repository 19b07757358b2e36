import { PaginatorDefinition } from '../definition/stream-definition';
import type { StreamPlan } from '../stream-plan';
import { PageState } from './paginator';

/**
 * Restarts a modification-sorted list from the last record's modification time, skipping the records on that
 * boundary already read:
 * - `reslice_at`: search endpoints that cap the offset (HubSpot: `after` may not reach 10,000) restart at the cap;
 * - `reslice_each_page`: lists paged by position restart after every page, so a record edited mid-read (moved to
 *   the end) shifts no page. While a whole page shares the boundary's time, paging goes on by position.
 */
export class Reslicer {
  private boundaryTime = -Infinity;
  private boundaryIds = new Set<string>();
  /** the oldest modification time of the page being read (its records read so far, duplicates included) */
  private pageOldest = Infinity;

  constructor(
    private readonly plan: StreamPlan,
    /** null on a first run: `{{cursor}}` is undefined (left out) until a restart moves it */
    public sliceStart: Date | null,
    private readonly where: string,
  ) {}

  /** A further list of the stream (`more_requests`) starts at the window's start again. */
  startOver(sliceStart: Date | null): void {
    this.sliceStart = sliceStart;
    this.boundaryTime = -Infinity;
    this.boundaryIds = new Set<string>();
    this.pageOldest = Infinity;
  }

  /** the stream's list restarts (its `first_read` way, paged by id, never does) */
  private get restarts(): boolean {
    const paginator = this.plan.definition.paginator;
    return !!(paginator?.reslice_at || paginator?.reslice_each_page);
  }

  /**
   * After a page, whether the list starts again at `sliceStart` (moved to the boundary) instead of going on to
   * `next`. `paginator` is the way's own (a `first_read`, paged by id, has none of these settings).
   */
  shouldRestart(next: PageState, paginator: PaginatorDefinition | undefined): boolean {
    const pageOldest = this.pageOldest;
    this.pageOldest = Infinity;
    const cap = paginator?.reslice_at;
    const tokenParam = paginator?.token_param;
    if (cap && tokenParam && Number(next.params[tokenParam]) >= cap) return this.restartAtCap(cap);
    // Only a page that spans more than one modification time: the next slice then starts past the page's first
    // record. A page all on the boundary's time (an import's second) goes on by position.
    if (!paginator?.reslice_each_page || !(pageOldest < this.boundaryTime)) return false;
    this.sliceStart = new Date(this.boundaryTime);
    return true;
  }

  private restartAtCap(cap: number): boolean {
    // The next slice starts with the records on the boundary again; if they fill the cap it cannot progress.
    if (this.boundaryTime <= (this.sliceStart?.getTime() ?? -Infinity) || this.boundaryIds.size >= cap) {
      throw new Error(
        `${this.where}: more than ${cap} records share the modification time ${new Date(this.boundaryTime).toISOString()}; the search cannot be re-sliced`,
      );
    }
    this.sliceStart = new Date(this.boundaryTime);
    return true;
  }

  isDuplicate(record: { id: string; updated_at?: Date | null }): boolean {
    if (!this.restarts || !record.updated_at) return false;
    const time = record.updated_at.getTime();
    this.pageOldest = Math.min(this.pageOldest, time);
    if (time === this.boundaryTime) {
      if (this.boundaryIds.has(record.id)) return true;
      this.boundaryIds.add(record.id);
    } else if (time > this.boundaryTime) {
      this.boundaryTime = time;
      this.boundaryIds = new Set([record.id]);
    }
    return false;
  }
}
