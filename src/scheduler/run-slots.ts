/** Frees the slot a run held (once; a second call does nothing). */
export type ReleaseSlot = () => void;

/**
 * The runs the scheduler has going at once in this daemon (`scheduler.concurrency`): a run takes a slot before it
 * starts and gives it back when it ends; the others wait in turn (first come, first served). Three hundred
 * connections due at one minute (or at start-up) then start a few at a time instead of all reading their sources
 * and holding their batches at once. One wait per key (a connection's sync or flow): a tick finding its key
 * already waiting is dropped, the waiting one stands for it.
 */
export class RunSlots {
  private going = 0;
  private readonly queue: { key: string; take: (release: ReleaseSlot | null) => void }[] = [];

  constructor(readonly limit: number) {}

  /** How many wait for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  isWaiting(key: string): boolean {
    return this.queue.some((entry) => entry.key === key);
  }

  /** A slot now, or null when all are taken or some wait already (they come first). */
  tryTake(): ReleaseSlot | null {
    if (this.going >= this.limit || this.queue.length > 0) return null;
    this.going++;
    return this.releaser();
  }

  /** A slot, when one is free; null when the waits were given up (shutdown). */
  take(key: string): Promise<ReleaseSlot | null> {
    const now = this.tryTake();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => this.queue.push({ key, take: resolve }));
  }

  /**
   * Gives up every wait (shutdown): those runs never start. Each waiting tick ends now (a cron job being stopped
   * waits for its tick to end, polling: one waiting for ever would keep the process alive).
   */
  clear(): void {
    for (const entry of this.queue.splice(0)) entry.take(null);
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next.take(this.releaser());
      else this.going--;
    };
  }
}
