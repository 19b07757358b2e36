/**
 * Which part of a stream is fully done (acknowledged, unchanged or rejected), in read order.
 * Records are grouped in chunks as they are read; a chunk is complete when it was looked up and
 * every record of it sent was acknowledged. The cursor may advance to the highest updated_at of
 * the contiguous prefix of complete chunks, never past a record still in flight or failed.
 */
export interface Chunk {
  /** ms since epoch of the latest updated_at in the chunk */
  maxAt: number | null;
  /** records sent and not yet acknowledged */
  pending: number;
  /** every record of the chunk was read, checked and looked up */
  closed: boolean;
}

export class CoverageTracker {
  private readonly queue: Chunk[] = [];
  private head = 0;
  private coveredAt: number | null = null;
  private seenMaxAt: number | null = null;

  open(): Chunk {
    const chunk: Chunk = { maxAt: null, pending: 0, closed: false };
    this.queue.push(chunk);
    return chunk;
  }

  note(chunk: Chunk, at: number | null): void {
    if (at === null) return;
    if (chunk.maxAt === null || at > chunk.maxAt) chunk.maxAt = at;
    if (this.seenMaxAt === null || at > this.seenMaxAt) this.seenMaxAt = at;
  }

  /** Drops complete chunks from the head; true when the covered value moved. */
  advance(): boolean {
    const before = this.coveredAt;
    while (this.head < this.queue.length) {
      const chunk = this.queue[this.head];
      if (!chunk.closed || chunk.pending > 0) break;
      if (chunk.maxAt !== null && (this.coveredAt === null || chunk.maxAt > this.coveredAt)) this.coveredAt = chunk.maxAt;
      this.head++;
    }
    if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return this.coveredAt !== before;
  }

  /** highest updated_at such that every record read up to it is done (sorted streams) */
  get covered(): number | null {
    return this.coveredAt;
  }

  /** highest updated_at read at all (unsorted streams, at the end of a complete stream) */
  get seenMax(): number | null {
    return this.seenMaxAt;
  }

  /** At the stream's end (the last chunk closed; the one opened after it holds nothing). */
  get allDone(): boolean {
    this.advance();
    const left = this.queue.length - this.head;
    return left === 0 || (left === 1 && this.queue[this.head].pending === 0 && this.queue[this.head].maxAt === null);
  }
}
