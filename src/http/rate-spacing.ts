/**
 * A CRM or the service counts requests where they arrive, in a sliding window; a limiter decides where they
 * leave. Between the two, a request can be held up (a timer fired late, a busy event loop, other processes on
 * the CPUs) while the next one goes on time: spaced exactly `window / N` apart, N + 1 requests then arrive
 * within the window (8 within 998 ms at amoCRM's 7 a second). So limiters space requests that N + 1 of them
 * span the window plus this margin: a request may leave this late without the window being overrun.
 */
export const WINDOW_MARGIN_MS = 100;

/** The spacing (ms) of requests limited to `requests` per `windowMs`, with the margin. */
export function spacingMs(requests: number, windowMs: number): number {
  return (windowMs + WINDOW_MARGIN_MS) / requests;
}

/** The spacing of an operation limited per second and/or per minute: the stricter of the two (0: none). */
export function operationSpacingMs(limit: { perSecond?: number; perMinute?: number }): number {
  return Math.max(
    limit.perSecond ? spacingMs(limit.perSecond, 1000) : 0,
    limit.perMinute ? spacingMs(limit.perMinute, 60_000) : 0,
  );
}

/**
 * The first request of a client takes the cold path (lazy loading, its first connection, a TLS handshake): it can
 * arrive well after it leaves, on the heels of the next one (175 ms late in a fresh process, against a margin of
 * 100). The requests after it leave once it is answered; from then on the spacing's margin covers the jitter.
 */
export class FirstRequestGate {
  private first: Promise<unknown> | null = null;

  run<T>(send: () => Promise<T>): Promise<T> {
    if (this.first) return this.first.then(send);
    const sent = send();
    this.first = sent.catch(() => undefined);
    return sent;
  }
}

/**
 * Requests one after another at least `spacingMs` apart, measured from the moment the previous one actually
 * left, not from when it was due: with Bottleneck's minTime a timer that fires late (a busy machine) shrinks the
 * next gap. `turn()` resolves, in order, with `leave`: the caller calls it as its request goes out (or when it
 * gives up); the next turn comes `spacingMs` after that.
 */
export class Spacer {
  private nextAt = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly spacingMs: number) {}

  async turn(signal?: AbortSignal): Promise<() => void> {
    const previous = this.queue;
    let left = false;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    const leave = () => {
      if (left) return;
      left = true;
      this.nextAt = performance.now() + this.spacingMs;
      release();
    };
    await previous;
    for (let wait = this.nextAt - performance.now(); wait > 0 && !signal?.aborted; wait = this.nextAt - performance.now()) {
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
    }
    return leave;
  }

  /** As if a request had just left: the next waits one spacing. */
  hold(): void {
    this.nextAt = performance.now() + this.spacingMs;
  }
}
