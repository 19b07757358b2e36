/** The most requests seen in any window of `ms` (a sliding window, as a CRM or the service counts them). */
export function busiestWindow(times: number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/**
 * A loaded machine, within this process: the event loop is blocked for `blockMs` every `everyMs`, so timers fire
 * late and a request leaves late while the next one goes on time. Returns the stop.
 */
export function busyEventLoop(blockMs = 30, everyMs = 100): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + blockMs * (0.5 + Math.random());
    while (performance.now() < until) {
      // busy: what other processes on the CPUs do to this one
    }
  }, everyMs);
  return () => clearInterval(timer);
}
