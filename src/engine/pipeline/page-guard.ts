import { createHash } from 'crypto';
import type { Page } from '../../connectors/connector-definition';
import { RepeatedPageError } from '../engine-errors';
import { isValidDate } from '../mappings/mapping-error';

/**
 * Any page yielded twice in one read (same ids, refs and updated_at values) means the connector's
 * paginator loops: fail instead of reading forever. Every page is remembered (a short hash each),
 * not only the last one.
 */
export class PageGuard {
  private readonly seen = new Map<string, number>();
  private count = 0;

  constructor(private readonly where: string) {}

  check(page: Page): void {
    this.count++;
    if (!page.records.length) return;
    // one string per page, hashed once: a hash update per record cost twice as much
    const parts = page.records.map((r, i) => {
      const at = (r as { updated_at?: Date | null }).updated_at;
      return `${String(r.id)}\u0000${page.refs?.[i] ?? ''}\u0000${isValidDate(at) ? at.getTime() : ''}`;
    });
    const signature = createHash('sha1').update(parts.join('\u0001')).digest('base64');
    const earlier = this.seen.get(signature);
    if (earlier !== undefined) {
      const first = String(page.records[0].id);
      const last = String(page.records[page.records.length - 1].id);
      throw new RepeatedPageError(
        `${this.where}: page ${this.count} repeats page ${earlier} (records ${first}…${last}): the connector's paginator loops; stream stopped`,
      );
    }
    this.seen.set(signature, this.count);
  }
}
