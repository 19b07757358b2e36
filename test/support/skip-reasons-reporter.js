/**
 * After the run, says which suites were skipped and why. A suite that needs something the machine may
 * lack (PostgreSQL, /usr/bin/chromium) is declared with `describe.skip('<name> skipped: <reason>')`;
 * jest's default reporter shows only a count of skipped tests, so the reasons are listed here, once each.
 */
const SKIPPED = / skipped: (.+)$/;

class SkipReasonsReporter {
  constructor() {
    /** reason → suite names */
    this.reasons = new Map();
  }

  onTestResult(_test, result) {
    for (const assertion of result.testResults) {
      if (assertion.status !== 'pending') continue;
      for (const title of assertion.ancestorTitles) {
        const match = SKIPPED.exec(title);
        if (!match) continue;
        const suites = this.reasons.get(match[1]) ?? new Set();
        suites.add(title.slice(0, match.index));
        this.reasons.set(match[1], suites);
      }
    }
  }

  onRunComplete() {
    if (this.reasons.size === 0) return;
    const lines = ['', 'Skipped suites (the README, "Running the tests", says how to enable them):'];
    for (const [reason, suites] of this.reasons) {
      lines.push(`  ${suites.size} suite(s) skipped: ${reason}`);
      for (const suite of [...suites].slice(0, 3)) lines.push(`    - ${suite}`);
      if (suites.size > 3) lines.push(`    - … and ${suites.size - 3} more`);
    }
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

module.exports = SkipReasonsReporter;
