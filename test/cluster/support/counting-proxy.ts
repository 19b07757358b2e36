/** The proxy lives with the benchmarks (bench:cluster uses it too); the tests take it from there. */
export { countingProxy, CountingProxy, SeenRequest } from '../../../bench/counting-proxy';

/** The most requests that arrived within any `ms` (a sliding window, as the service counts). */
export { busiestWindow } from '../../support/arrival-windows';
