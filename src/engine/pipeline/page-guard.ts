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
    const signature = pageSignature(page);
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

const imul = Math.imul;
const TWO_32 = 2 ** 32;

/**
 * A page's ids, refs and updated_at values as 64 bits (two 32-bit multiply-xor lanes, as the spreadsheet's row
 * hashes) and its length: nothing allocated per record (a string per record and a sha1 of their join made 0.1 GB
 * of garbage in a 1,000,000-deal sync). Two different pages collide with a chance of about 2^-64.
 */
function pageSignature(page: Page): string {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  const mix = (k: number) => {
    h1 = imul(h1 ^ k, 2654435761);
    h2 = imul(h2 ^ k, 1597334677);
  };
  const text = (value: string) => {
    for (let i = 0; i < value.length; i++) mix(value.charCodeAt(i));
    mix(0x1f0000); // a separator no UTF-16 unit equals
  };
  for (let i = 0; i < page.records.length; i++) {
    const record = page.records[i];
    text(String(record.id));
    text(page.refs?.[i] ?? '');
    const at = (record as { updated_at?: Date | null }).updated_at;
    const ms = isValidDate(at) ? at.getTime() : NaN;
    if (Number.isNaN(ms)) mix(0x2f0000);
    else {
      mix(ms % TWO_32);
      mix(Math.floor(ms / TWO_32));
    }
  }
  h1 = imul(h1 ^ (h1 >>> 16), 2246822507) ^ imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = imul(h2 ^ (h2 >>> 16), 2246822507) ^ imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${(h1 >>> 0).toString(36)}.${(h2 >>> 0).toString(36)}.${page.records.length}`;
}
