import { hashText } from './row-hash';

/**
 * Remembers the ids of one file and the row each was first seen on, to reject duplicates.
 * A Map of a million id strings costs ~100 MB; this open-addressing table keeps a 64-bit hash and the row
 * number per id in typed arrays (12 bytes a slot, at most 3/4 full: 24 MB for a million ids). Two different ids share a 64-bit hash with a chance
 * of about 1 in 10^7 on a million-row file; such an id would be wrongly reported as a duplicate.
 */
export class IdRegistry {
  private capacity = 1 << 12;
  private size = 0;
  private highs = new Uint32Array(this.capacity);
  private lows = new Uint32Array(this.capacity);
  /** row number + 1 (0 = empty slot) */
  private rows = new Uint32Array(this.capacity);
  private readonly scratch = new Uint32Array(2);

  /** Records the id at `row`; returns the row it was first seen on, or 0 when new. */
  remember(id: string, row: number): number {
    hashText(id, this.scratch);
    const high = this.scratch[0];
    const low = this.scratch[1];
    let slot = this.find(high, low);
    if (this.rows[slot] !== 0) return this.rows[slot] - 1;
    if ((this.size + 1) * 4 > this.capacity * 3) {
      this.grow();
      slot = this.find(high, low);
    }
    this.highs[slot] = high;
    this.lows[slot] = low;
    this.rows[slot] = row + 1;
    this.size++;
    return 0;
  }

  private find(high: number, low: number): number {
    const mask = this.capacity - 1;
    let slot = (low ^ (high >>> 7)) & mask;
    while (this.rows[slot] !== 0 && (this.highs[slot] !== high || this.lows[slot] !== low)) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private grow(): void {
    const { highs, lows, rows } = this;
    this.capacity *= 2;
    this.highs = new Uint32Array(this.capacity);
    this.lows = new Uint32Array(this.capacity);
    this.rows = new Uint32Array(this.capacity);
    for (let i = 0; i < rows.length; i++) {
      if (rows[i] === 0) continue;
      const slot = this.find(highs[i], lows[i]);
      this.highs[slot] = highs[i];
      this.lows[slot] = lows[i];
      this.rows[slot] = rows[i];
    }
  }
}
