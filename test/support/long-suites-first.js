/**
 * Starts the known-long suites first, then the rest in jest's own order.
 *
 * Why: jest orders files by their last duration, kept in its cache; a clean clone (CI) has no cache, so jest
 * orders them by file size, and the longest suite of all (cluster-mode-daemons.spec.ts, about six minutes of
 * wall-clock ticks in a file of a dozen lines) started last: `npm test` then took its six minutes after
 * everything else. Started first, the long suites wait on their daemons and ticks while the other workers
 * run the short ones beside them.
 */
const Sequencer = require('@jest/test-sequencer').default;

/** Suites of a minute or more on 2 cores (measured), the longest first. Paths from the repository root. */
const LONG_SUITES = [
  'test/cluster/cluster-mode-daemons.spec.ts',
  'test/cluster/three-daemons.spec.ts',
  'test/e2e/write-back-large-project.e2e.spec.ts',
  'test/webhooks/webhooks.e2e.spec.ts',
  'test/cluster/queue-faults.spec.ts',
  'test/projects/projects-sandbox.spec.ts',
];

class LongSuitesFirst extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const at = LONG_SUITES.findIndex((suite) => test.path.replace(/\\/g, '/').endsWith(`/${suite}`));
      return at === -1 ? LONG_SUITES.length : at;
    };
    // Array.prototype.sort is stable: the rest keep jest's order
    return [...super.sort(tests)].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongSuitesFirst;
module.exports.LONG_SUITES = LONG_SUITES;
