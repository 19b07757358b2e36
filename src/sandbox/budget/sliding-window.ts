/** Counts events per key over a sliding time window. */
export class SlidingWindow {
  private readonly events = new Map<string, number[]>();

  constructor(private readonly max: number, private readonly windowMs: number) {}

  /** Records an event unless the window is full; then returns the seconds until a slot frees. */
  take(key: string, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const stamps = this.prune(key, now);
    if (stamps.length >= this.max) {
      return { ok: false, retryAfterSeconds: (stamps[0] + this.windowMs - now) / 1000 };
    }
    stamps.push(now);
    return { ok: true };
  }

  private prune(key: string, now: number): number[] {
    let stamps = this.events.get(key);
    if (!stamps) {
      stamps = [];
      this.events.set(key, stamps);
    }
    let drop = 0;
    while (drop < stamps.length && stamps[drop] <= now - this.windowMs) drop += 1;
    if (drop > 0) stamps.splice(0, drop);
    return stamps;
  }
}
