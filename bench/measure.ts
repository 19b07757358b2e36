/**
 * Preloaded into every benchmark child (`node -r dist/bench/measure.js ...`): at exit it appends one JSON line
 * with the process's wall time, CPU time and peak RSS to the file named by BENCH_MEASURE_FILE.
 */
import { appendFileSync } from 'node:fs';

const started = process.hrtime.bigint();
const target = process.env.BENCH_MEASURE_FILE;

if (target) {
  process.on('exit', (code) => {
    const usage = process.resourceUsage();
    const line = {
      code,
      wall_ms: Number(process.hrtime.bigint() - started) / 1e6,
      cpu_ms: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      peak_rss_mb: usage.maxRSS / 1024,
    };
    appendFileSync(target, JSON.stringify(line) + '\n');
  });
}
