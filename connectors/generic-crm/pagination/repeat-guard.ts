import { createHash } from 'crypto';

/**
 * Fails a stream whose paginator comes back to any request it already made in this run (A→B→A, not only
 * A→A), or whose server answers two different page requests with the same non-empty page: either would
 * loop forever or duplicate records.
 */
export class RepeatGuard {
  private readonly requests = new Map<string, number>();
  private readonly pages = new Map<string, number>();
  private count = 0;

  constructor(private readonly where: string) {}

  /** call before sending; `description` is the full request (method, URL, body) */
  beforeRequest(description: string): void {
    this.count++;
    const seen = this.requests.get(description);
    if (seen !== undefined) {
      throw new Error(
        `${this.where}: the paginator returned to a page it already read in this run (${description}: request #${seen} and #${this.count}); stopping instead of looping`,
      );
    }
    this.requests.set(description, this.count);
  }

  /** call with each answer that carried records */
  afterPage(text: string, description: string): void {
    const hash = createHash('sha1').update(text).digest('hex');
    const seen = this.pages.get(hash);
    if (seen !== undefined) {
      throw new Error(
        `${this.where}: ${description} (request #${this.count}) returned the same page as request #${seen}; the source ignores the paginator, stopping instead of looping`,
      );
    }
    this.pages.set(hash, this.count);
  }
}
