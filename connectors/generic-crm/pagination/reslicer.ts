import { PaginatorDefinition } from '../definition/stream-definition';
import type { StreamPlan } from '../stream-plan';
import { PageState } from './paginator';

/**
 * Restarts a modification-sorted list from the last record's modification time, skipping the records already read:
 * - `reslice_at`: search endpoints that cap the offset (HubSpot: `after` may not reach 10,000) restart at the cap;
 * - `reslice_each_page`: lists paged by position restart after every page, so a record edited mid-read (moved to
 *   the end) shifts no page. While a page spans less than the step back below, paging goes on by position.
 * A restart steps back one tick of the cursor's format (a second; a millisecond for unix_ms): a CRM whose `from`
 * filter is not inclusive (amoCRM documents neither) still answers the records of the last record's second.
 */
export class Reslicer {
  /** ids read at the latest times (from the next restart's start on), with the time each was read at */
  private readonly seen = new Map<string, number>();
  /** the same entries, oldest first, to let go of those before the next restart's start */
  private readonly order: { id: string; time: number }[] = [];
  private head = 0;
  private latest = -Infinity;
  /** the oldest modification time of the page being read (its records read so far, duplicates included) */
  private pageOldest = Infinity;
  private readonly stepBackMs: number;

  constructor(
    private readonly plan: StreamPlan,
    /** null on a first run: `{{cursor}}` is undefined (left out) until a restart moves it */
    public sliceStart: Date | null,
    private readonly where: string,
  ) {
    this.stepBackMs = plan.cursorFormat.format === 'unix_ms' ? 1 : 1000;
  }

  /** A further list of the stream (`more_requests`) starts at the window's start again. */
  startOver(sliceStart: Date | null): void {
    this.sliceStart = sliceStart;
    this.seen.clear();
    this.order.length = 0;
    this.head = 0;
    this.latest = -Infinity;
    this.pageOldest = Infinity;
  }

  /** the stream's list restarts (its `first_read` way, paged by id, never does) */
  private get restarts(): boolean {
    const paginator = this.plan.definition.paginator;
    return !!(paginator?.reslice_at || paginator?.reslice_each_page);
  }

  /** where the next slice would start: a tick before the latest time read */
  private get nextStart(): number {
    return this.latest - this.stepBackMs;
  }

  /**
   * After a page, whether the list starts again at `sliceStart` (moved back to the latest time read) instead of going
   * on to `next`. `paginator` is the way's own (a `first_read`, paged by id, has none of these settings).
   */
  shouldRestart(next: PageState, paginator: PaginatorDefinition | undefined): boolean {
    const pageOldest = this.pageOldest;
    this.pageOldest = Infinity;
    const cap = paginator?.reslice_at;
    const tokenParam = paginator?.token_param;
    if (cap && tokenParam && Number(next.params[tokenParam]) >= cap) return this.restartAtCap(cap);
    // Only a page that began before the next slice's start: that slice then starts past the page's first record.
    // A page within one tick (an import's second) goes on by position.
    if (!paginator?.reslice_each_page || !(pageOldest < this.nextStart)) return false;
    this.restartAt(this.nextStart);
    return true;
  }

  private restartAtCap(cap: number): boolean {
    // The next slice starts with the records of its first tick again; if they fill the cap it cannot progress.
    if (this.nextStart <= (this.sliceStart?.getTime() ?? -Infinity) || this.seenSince(this.nextStart) >= cap) {
      throw new Error(
        `${this.where}: more than ${cap} records share the modification time ${new Date(this.latest).toISOString()}; the search cannot be re-sliced`,
      );
    }
    this.restartAt(this.nextStart);
    return true;
  }

  private restartAt(start: number): void {
    this.sliceStart = new Date(start);
    // entries before the new start cannot be answered again
    while (this.head < this.order.length && this.order[this.head].time < start) {
      const { id, time } = this.order[this.head++];
      if (this.seen.get(id) === time) this.seen.delete(id);
    }
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }

  private seenSince(start: number): number {
    let count = 0;
    for (let i = this.order.length - 1; i >= this.head && this.order[i].time >= start; i--) count++;
    return count;
  }

  /** A record read again by a restarted slice (the same id at the same time): not passed on twice. */
  isDuplicate(record: { id: string; updated_at?: Date | null }): boolean {
    if (!this.restarts || !record.updated_at) return false;
    const time = record.updated_at.getTime();
    this.pageOldest = Math.min(this.pageOldest, time);
    if (this.seen.get(record.id) === time) return true;
    this.seen.set(record.id, time);
    this.order.push({ id: record.id, time });
    if (time > this.latest) this.latest = time;
    return false;
  }
}
