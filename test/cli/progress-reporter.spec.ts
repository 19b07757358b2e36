import type { ProgressEvent } from '../../src/engine';
import { CliOutput, processOutput } from '../../src/cli/output/cli-output';
import { cliLogSink } from '../../src/cli/output/log-sink';
import { CLEAR_TO_END, progressReporter } from '../../src/cli/output/progress-reporter';
import { duration, progressDetails, StreamRate } from '../../src/cli/output/progress-rate';

const MB = 1024 * 1024;

function event(stream: ProgressEvent['stream'], read: number, source?: ProgressEvent['source']): ProgressEvent {
  return { connectionId: 'c', runId: 7, stream, read, sent: read - 1, unchanged: 0, rejected: 1, source };
}

describe('sync progress', () => {
  it('shows how far through the file, the pace and the time left (not how much of what was read is settled)', () => {
    const rate = new StreamRate(0);
    rate.update(event('deals', 1000, { done: 1 * MB, total: 10 * MB, unit: 'bytes' }), 1_000);
    const p = rate.update(event('deals', 5000, { done: 5 * MB, total: 10 * MB, unit: 'bytes' }), 5_000);
    expect(p.fraction).toBe(0.5);
    expect(p.recordsPerSecond).toBe(1000);
    expect(p.secondsLeft).toBe(5);
    expect(progressDetails(p)).toBe('50% (5.0 MB of 10.0 MB) · read 5000 · sent 4999 · unchanged 0 · rejected 1 · 1,000 records/s · 5 s left');
  });

  it("uses the CRM's total in records, and measures the pace over the last ten seconds", () => {
    const rate = new StreamRate(0);
    for (let t = 1; t <= 20; t++) rate.update(event('clients', t * 100, { done: t * 100, total: 4000, unit: 'records' }), t * 1000);
    // the pace doubles: the window follows it
    let p = rate.update(event('clients', 2200, { done: 2200, total: 4000, unit: 'records' }), 21_000);
    for (let t = 22; t <= 31; t++) p = rate.update(event('clients', 2200 + (t - 21) * 200, { done: 2200 + (t - 21) * 200, total: 4000, unit: 'records' }), t * 1000);
    expect(p.recordsPerSecond).toBe(200);
    expect(p.secondsLeft).toBe(0);
    expect(progressDetails(p)).toMatch(/^100% \(4,200 of 4,000 records\) · read 4200 · .* · 200 records\/s$/);
  });

  it('without a known size: counts and pace, no percentage, no time left', () => {
    const rate = new StreamRate(0);
    expect(progressDetails(rate.update(event('deals', 10), 500))).toBe('read 10 · sent 9 · unchanged 0 · rejected 1');
    const p = rate.update(event('deals', 3010, { done: 3010, total: null, unit: 'records' }), 3_000);
    expect(progressDetails(p)).toBe('3,010 records fetched · read 3010 · sent 3009 · unchanged 0 · rejected 1 · 1,003 records/s');
  });

  it('writes time left for people', () => {
    expect(duration(4.4)).toBe('4 s');
    expect(duration(185)).toBe('3 min 05 s');
    expect(duration(7800)).toBe('2 h 10 min');
  });

  it('prints plain lines on stderr when it is not a terminal: a long stream every few seconds, and its last state once', () => {
    const lines: string[] = [];
    const out: CliOutput = { line: () => { throw new Error('progress on stdout'); }, error: (t) => lines.push(t), isTTY: false };
    let now = Date.parse('2026-01-01T00:00:00Z');
    const reporter = progressReporter(out, { lineIntervalMs: 5_000, now: () => now });
    const file = (done: number) => ({ done, total: 4 * MB, unit: 'bytes' as const });
    for (let s = 1; s <= 12; s++) {
      now += 1000;
      reporter.update(event('deals', s * 100, file((s * MB) / 3)));
    }
    reporter.stop();
    expect(lines).toEqual([
      '2026-01-01T00:00:06.000Z run 7 deals: 50% (2.0 MB of 4.0 MB) · read 600 · sent 599 · unchanged 0 · rejected 1 · 100 records/s · 6 s left',
      '2026-01-01T00:00:11.000Z run 7 deals: 91% (3.7 MB of 4.0 MB) · read 1100 · sent 1099 · unchanged 0 · rejected 1 · 100 records/s · 1 s left',
      '2026-01-01T00:00:12.000Z run 7 deals: 100% (4.0 MB of 4.0 MB) · read 1200 · sent 1199 · unchanged 0 · rejected 1 · 100 records/s',
    ]);
  });

  it('prints each short stream once: its last state, when the next stream begins or the run ends', () => {
    const lines: string[] = [];
    let now = Date.parse('2026-01-01T00:00:00Z');
    const reporter = progressReporter({ line: () => undefined, error: (t) => lines.push(t), isTTY: false }, { lineIntervalMs: 5_000, now: () => now });
    for (const stream of ['managers', 'clients', 'deals'] as const) {
      for (const read of [100, 200, 300]) {
        now += 500;
        reporter.update(event(stream, read));
      }
    }
    reporter.stop();
    expect(lines.map((line) => line.replace(/ · \d+ records\/s$/, ''))).toEqual([
      '2026-01-01T00:00:01.500Z run 7 managers: read 300 · sent 299 · unchanged 0 · rejected 1',
      '2026-01-01T00:00:03.000Z run 7 clients: read 300 · sent 299 · unchanged 0 · rejected 1',
      '2026-01-01T00:00:04.500Z run 7 deals: read 300 · sent 299 · unchanged 0 · rejected 1',
    ]);
  });

  it('prints nothing with --json', () => {
    const lines: string[] = [];
    const reporter = progressReporter({ line: (t) => lines.push(t), error: (t) => lines.push(t), isTTY: false }, { quiet: true });
    reporter.update(event('deals', 1));
    reporter.stop();
    expect(lines).toEqual([]);
  });

  it("an outbound pass: pages or deals done of the total, the flow's counters, time left; a dry run is named so", () => {
    const lines: string[] = [];
    let now = Date.parse('2026-01-01T00:00:00Z');
    // progress goes to stderr, as a sync's
    const reporter = progressReporter({ line: () => undefined, error: (t) => lines.push(t), isTTY: false }, { lineIntervalMs: 5_000, now: () => now });
    const pass = (runId: number, done: number, written: number): ProgressEvent => ({
      connectionId: 'c', runId, stream: 'write_back', read: done, sent: written, unchanged: 0, rejected: 0,
      source: { done, total: 400, unit: 'deals' }, flowCounters: { attributed: written, written, unchanged: 0, rejected: 0 },
    });
    for (const [at, done] of [[1, 8], [2, 16], [10, 80]]) {
      now = Date.parse('2026-01-01T00:00:00Z') + at * 1000;
      reporter.update(pass(0, done, 0));
    }
    now += 1000;
    reporter.update(pass(0, 400, 3));
    reporter.stop();
    // as a sync's stream: a line once it has lasted lineIntervalMs, then its last state when it ends
    expect(lines).toEqual([
      '2026-01-01T00:00:10.000Z dry run write_back: 20% (80 of 400 deals) · attributed 0 · written 0 · unchanged 0 · rejected 0 · 40 s left',
      '2026-01-01T00:00:11.000Z dry run write_back: 100% (400 of 400 deals) · attributed 3 · written 3 · unchanged 0 · rejected 0',
    ]);
    // no records/s: a pass's pace is its time left
    expect(progressDetails(new StreamRate(0).update(pass(12, 3, 1), 3_000))).toBe('0% (3 of 400 deals) · attributed 1 · written 1 · unchanged 0 · rejected 0 · 6 min 37 s left');
  });
});

describe('progress bars on a terminal, and the lines printed meanwhile', () => {
  it('a log line, and a line of the CLI itself, go above the bars, clearing what the bars left', () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write);
    const stdout = { isTTY: true, write: (text: string) => (written.push(`stdout:${text}`), true) } as unknown as NodeJS.WritableStream;
    try {
      const reporter = progressReporter({ line: () => undefined, error: () => undefined, isTTY: true });
      reporter.update(event('deals', 10, { done: 10, total: 100, unit: 'records' }));
      cliLogSink.write('a log line\n');
      processOutput((t) => t, cliLogSink, stdout).line('run 7 started');
      reporter.stop();
    } finally {
      spy.mockRestore();
    }
    expect(written.filter((w) => w.startsWith('stdout:'))).toEqual([]); // not through the bars on stdout
    const text = written.join('');
    expect(text).toContain(`${CLEAR_TO_END}a log line\n`);
    expect(text).toContain(`${CLEAR_TO_END}run 7 started\n`);
  });
});
