import { getEventListeners } from 'node:events';
import { sleep } from '../../src/http/retry-policy';

/** A run's signal outlives every wait of the run: a wait that ends leaves no listener on it. */
describe('sleep with a signal', () => {
  it('removes its abort listener when the time is up (75 waits of a pass: no MaxListenersExceededWarning)', async () => {
    const run = new AbortController();
    await Promise.all(Array.from({ length: 75 }, () => sleep(1, run.signal)));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('an abort ends the wait at once', async () => {
    const run = new AbortController();
    const started = Date.now();
    const wait = sleep(10_000, run.signal);
    run.abort();
    await wait;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
