/**
 * One timer per connection: each call re-arms it, so a burst of calls fires once, `debounceMs` after its last
 * call. A stream of calls that never pauses still fires every `maxWaitMs` (10 debounces), so a busy CRM does
 * not postpone its changes for ever.
 */
export class WebhookDebouncer {
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; firstAt: number }>();

  constructor(private readonly fire: (connectionId: string) => void) {}

  call(connectionId: string, debounceMs: number, now = Date.now()): void {
    const current = this.pending.get(connectionId);
    const firstAt = current?.firstAt ?? now;
    if (current) clearTimeout(current.timer);
    const delay = Math.max(0, Math.min(debounceMs, firstAt + debounceMs * 10 - now));
    const timer = setTimeout(() => {
      this.pending.delete(connectionId);
      this.fire(connectionId);
    }, delay);
    timer.unref();
    this.pending.set(connectionId, { timer, firstAt });
  }

  /** connections with a run due (for tests and the status page) */
  waiting(): string[] {
    return [...this.pending.keys()];
  }

  stop(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
