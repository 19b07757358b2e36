import { hashText } from './row-hash';

/** the most a table holds before it grows: linear probing stays short below this */
const MAX_LOAD = 0.75;

/**
 * Remembers the ids of one file and the row each was first seen on, to reject duplicates.
 * A Map of a million id strings costs ~100 MB; this open-addressing table keeps a 64-bit hash and the row
 * number per id in typed arrays (12 bytes a slot, at most 3/4 full). Two different ids share a 64-bit hash with
 * a chance of about 1 in 10^7 on a million-row file; such an id would be wrongly reported as a duplicate.
 *
 * A reader that can guess the file's row count reserves the table once (`reserve`): 16 MB for a million ids,
 * where growing by doubling ended at 24 MB and held the old and the new table at once (36 MB) while it grew.
 */
export class IdRegistry {
  private capacity = 1 << 12;
  private size = 0;
  private highs = new Uint32Array(this.capacity);
  private lows = new Uint32Array(this.capacity);
  /** row number + 1 (0 = empty slot) */
  private rows = new Uint32Array(this.capacity);
  private readonly scratch = new Uint32Array(2);

  /** slots in the table (12 bytes each) */
  get slots(): number {
    return this.capacity;
  }

  /** Makes room for about `count` ids in all, so the table does not grow while they come. */
  reserve(count: number): void {
    const capacity = Math.ceil(count / MAX_LOAD) + 1;
    if (capacity > this.capacity) this.resize(capacity);
  }

  /** Records the id at `row`; returns the row it was first seen on, or 0 when new. */
  remember(id: string, row: number): number {
    hashText(id, this.scratch);
    const high = this.scratch[0];
    const low = this.scratch[1];
    let slot = this.find(high, low);
    if (this.rows[slot] !== 0) return this.rows[slot] - 1;
    if (this.size + 1 > this.capacity * MAX_LOAD) {
      this.resize(this.capacity * 2);
      slot = this.find(high, low);
    }
    this.highs[slot] = high;
    this.lows[slot] = low;
    this.rows[slot] = row + 1;
    this.size++;
    return 0;
  }

  private find(high: number, low: number): number {
    const capacity = this.capacity;
    // the hash scaled to the table (any size, not only powers of two); exact enough below 2^27 slots
    let slot = Math.floor(((low ^ (high >>> 7)) >>> 0) * capacity / 4294967296);
    while (this.rows[slot] !== 0 && (this.highs[slot] !== high || this.lows[slot] !== low)) {
      slot = slot + 1 === capacity ? 0 : slot + 1;
    }
    return slot;
  }

  private resize(capacity: number): void {
    const { highs, lows, rows } = this;
    this.capacity = capacity;
    this.highs = new Uint32Array(capacity);
    this.lows = new Uint32Array(capacity);
    this.rows = new Uint32Array(capacity);
    for (let i = 0; i < rows.length; i++) {
      if (rows[i] === 0) continue;
      const slot = this.find(highs[i], lows[i]);
      this.highs[slot] = highs[i];
      this.lows[slot] = lows[i];
      this.rows[slot] = rows[i];
    }
  }
}
