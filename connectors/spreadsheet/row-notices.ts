import type { Deal } from 'tracker-sync/connector';

/** ids a notice names; its count says how many more */
const NAMED = 5;

/** closed_statuses' default: the service's own ids of its paid ('1') and cancelled ('2') statuses */
export const DEFAULT_CLOSED_STATUSES: readonly string[] = ['1', '2'];

/** A count, and the first few of what it counts by name. */
class Named {
  count = 0;
  private readonly first: string[] = [];

  add(name: string): void {
    if (this.first.length < NAMED) this.first.push(name);
    this.count++;
  }

  get names(): string {
    const more = this.count - this.first.length;
    return `${this.first.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
  }
}

/**
 * Paid or cancelled deals that nothing dates: no close date (closed_at) and no history entry of their status. The
 * service dates a payment or cancellation by the entry that moved the order into its status, else when it first
 * receives the status: a first import of an old export would put all its revenue on the sync's day. Updated_at is
 * not taken for the close date: it is the row's last edit (a comment, a price fixed), and a wrong payment date sent
 * silently is worse than one the user is told is missing. The other way round: a close date on a deal in another
 * status, which the engine sends as its move into that status (a planned date? closed_statuses not the project's?).
 */
export class CloseDates {
  private readonly undated = new Named();
  private readonly notClosed = new Named();
  private readonly closed: ReadonlySet<string>;

  constructor(closedStatuses: readonly string[] | undefined) {
    this.closed = new Set(closedStatuses ?? DEFAULT_CLOSED_STATUSES);
  }

  note(deal: Deal): void {
    const status = deal.status;
    if (!status || this.closed.size === 0) return; // closed_statuses: [] turns the warnings off
    if (!this.closed.has(status)) {
      if (deal.closed_at) this.notClosed.add(deal.id);
      return;
    }
    if (deal.closed_at || deal.history?.some((h) => h.status === status)) return;
    this.undated.add(deal.id);
  }

  notices(sheetName: string): string[] {
    const notices: string[] = [];
    const { undated, notClosed } = this;
    if (undated.count > 0) {
      notices.push(
        `${sheetName}: ${undated.count} paid or cancelled ${undated.count === 1 ? 'deal has' : 'deals have'} no close date (closed_at column) ` +
          `and no status history: the service dates ${undated.count === 1 ? 'it' : 'them'} on receipt (${undated.names}); ` +
          'add a closed_at column with the day each was paid or cancelled',
      );
    }
    if (notClosed.count > 0) {
      notices.push(
        `${sheetName}: ${notClosed.count} ${notClosed.count === 1 ? 'deal has' : 'deals have'} a close date (closed_at) but a status that is not ` +
          `paid or cancelled (closed_statuses: ${[...this.closed].join(', ')}): the date is sent as the move into that status ` +
          `(${notClosed.names}); leave closed_at empty for open deals, or set closed_statuses to the project's paid and cancelled status ids`,
      );
    }
    return notices;
  }
}

/**
 * Rows of an incremental read held back because their updated_at (or created_at) is later than the read itself:
 * a typo'd year (30.11.2027) would wait for years, every run `unchanged`. Rows dated between the run's upper
 * bound and now are ordinary waiting rows, not these.
 */
export class FutureRows {
  private readonly rows = new Named();

  get count(): number {
    return this.rows.count;
  }

  note(id: string, ref: string, field: string, written: string): void {
    this.rows.add(`${id || '(no id)'} (${ref}, ${field} ${written})`);
  }

  notice(sheetName: string): string | null {
    const { count } = this.rows;
    if (count === 0) return null;
    return (
      `${sheetName}: ${count} ${count === 1 ? 'row is' : 'rows are'} dated in the future and held back until then (deferred_future), ` +
      `the file read again on every run: ${this.rows.names}; correct the date`
    );
  }
}
