/**
 * At most `limit` calls per connection in any `windowMs` (a sliding window): the calls beyond it are answered
 * 429. The debounce already folds a burst into one run; this bounds the work a flood of verified calls makes.
 */
export class CallRate {
  private readonly calls = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 1000,
  ) {}

  /** true when this call is within the limit (it is then counted) */
  take(connectionId: string, now = Date.now()): boolean {
    const recent = (this.calls.get(connectionId) ?? []).filter((at) => now - at < this.windowMs);
    const allowed = recent.length < this.limit;
    if (allowed) recent.push(now);
    this.calls.set(connectionId, recent);
    return allowed;
  }
}
