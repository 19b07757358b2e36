import type { StreamPlan } from '../stream-plan';
import { PageState } from './paginator';

/**
 * Search endpoints that cap the offset (HubSpot: `after` may not reach 10,000): restart the search with
 * the cursor moved to the last record's modification time; records on that boundary already sent are skipped.
 */
export class Reslicer {
  private boundaryTime = -Infinity;
  private boundaryIds = new Set<string>();

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
  }

  private get limit(): number | undefined {
    return this.plan.definition.paginator?.reslice_at;
  }

  shouldRestart(next: PageState): boolean {
    const tokenParam = this.plan.definition.paginator?.token_param;
    if (!this.limit || !tokenParam || Number(next.params[tokenParam]) < this.limit) return false;
    // The next slice starts with the records on the boundary again; if they fill the cap it cannot progress.
    if (this.boundaryTime <= (this.sliceStart?.getTime() ?? -Infinity) || this.boundaryIds.size >= this.limit) {
      throw new Error(
        `${this.where}: more than ${this.limit} records share the modification time ${new Date(this.boundaryTime).toISOString()}; the search cannot be re-sliced`,
      );
    }
    this.sliceStart = new Date(this.boundaryTime);
    return true;
  }

  isDuplicate(record: { id: string; updated_at?: Date | null }): boolean {
    if (!this.limit || !record.updated_at) return false;
    const time = record.updated_at.getTime();
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
