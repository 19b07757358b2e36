/** What the dispatcher does with a batch: send it, then account for the answer or the failure. */
export interface BatchSender<T, A> {
  /** one request to the service; rejects when the whole batch failed */
  send(batch: T[]): Promise<A>;
  /** the service answered: account for it; resolves once what it acknowledged is checkpointed */
  answered(batch: T[], answer: A): Promise<void>;
  /** the request failed as a whole (or its accounting did) */
  failed(batch: T[], error: unknown): void;
}

/**
 * Batches in flight: at most `limit` requests await the service; a request's slot is free once it is answered,
 * while its checkpoint may still be written. At most `limit` answered batches wait for their checkpoint, so a
 * store slower than the service holds the next batch back, and a crash re-sends at most twice the window.
 */
export class BatchDispatcher<T, A> {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly checkpointing = new Set<Promise<void>>();

  constructor(
    private readonly limit: number,
    private readonly sender: BatchSender<T, A>,
    /** true once no new batch may leave (the run stops, or the stream failed) */
    private readonly halted: () => boolean,
  ) {}

  /**
   * Waits for a free slot, then sends the batch without waiting for its answer. Once halted no new batch
   * leaves: false, and its records stay where they are (pending in their chunk, so the cursor never passes them).
   */
  async dispatch(batch: T[]): Promise<boolean> {
    while (this.inFlight.size >= this.limit) await Promise.race(this.inFlight);
    while (this.checkpointing.size >= this.limit) await Promise.race(this.checkpointing);
    if (this.halted()) return false;
    const job: Promise<void> = this.deliver(batch).finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
    return true;
  }

  /** every request answered and every checkpoint written */
  async drain(): Promise<void> {
    while (this.inFlight.size || this.checkpointing.size) await Promise.race([...this.inFlight, ...this.checkpointing]);
  }

  private async deliver(batch: T[]): Promise<void> {
    let answer: A;
    try {
      answer = await this.sender.send(batch);
    } catch (e) {
      this.sender.failed(batch, e);
      return;
    }
    let accounted: Promise<void>;
    try {
      accounted = this.sender.answered(batch, answer);
    } catch (e) {
      accounted = Promise.reject(e);
    }
    const written: Promise<void> = accounted.catch((e: unknown) => this.sender.failed(batch, e)).finally(() => this.checkpointing.delete(written));
    this.checkpointing.add(written);
  }
}
