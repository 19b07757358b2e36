import { MultiBar, SingleBar } from 'cli-progress';
import type { ProgressEvent } from '../../engine';
import type { CliOutput } from './cli-output';
import { cliLogSink } from './log-sink';
import { progressDetails, StreamProgress, StreamRate } from './progress-rate';

/**
 * Shows a run's progress on stderr (stdout carries only the answer): how far through the source each stream is
 * (when its connector says: bytes of a file, or the CRM's total), records per second and time left. Bars when
 * stderr is a terminal, otherwise plain timestamped lines (a log file, a pipe); nothing with `--json`.
 */
export interface ProgressReporter {
  update(event: ProgressEvent): void;
  stop(): void;
}

export interface ProgressReporterOptions {
  /** `--json`: no progress at all */
  quiet?: boolean;
  /** plain lines: a stream that lasts longer than this prints a line this often; each stream's last state once */
  lineIntervalMs?: number;
  now?: () => number;
}

export function progressReporter(output: CliOutput, options: ProgressReporterOptions = {}): ProgressReporter {
  if (options.quiet) return { update: () => undefined, stop: () => undefined };
  const now = options.now ?? Date.now;
  // the bars are drawn on stderr (with the log lines): only when it is a terminal
  if (output.isTTY) return new BarReporter(now);
  return new LineReporter(output, options.lineIntervalMs ?? 5_000, now);
}

/** Per stream: its pace since its first event (a stream's first page already took time: count from the run's start). */
class StreamRates {
  private readonly rates = new Map<string, StreamRate>();
  private lastAt: number;

  constructor(private readonly now: () => number) {
    this.lastAt = now();
  }

  update(event: ProgressEvent): StreamProgress {
    const at = this.now();
    let rate = this.rates.get(event.stream);
    if (!rate) {
      // streams are read one after another: this one began when the previous one last reported
      rate = new StreamRate(this.lastAt);
      this.rates.set(event.stream, rate);
    }
    this.lastAt = at;
    return rate.update(event, at);
  }
}

const BAR_WIDTH = 24;
/** ANSI: erase from the cursor to the end of the screen */
export const CLEAR_TO_END = '\x1b[0J';

/** One bar per stream; log lines are printed above the bars instead of through them. */
class BarReporter implements ProgressReporter {
  private readonly multibar = new MultiBar({
    format: (_options, _params, payload: { line: string }) => payload.line,
    hideCursor: true,
    // Ctrl-C: the bars stop and the cursor comes back while the run checkpoints
    gracefulExit: true,
    clearOnComplete: false,
    stopOnComplete: false,
    stream: process.stderr,
  });
  private readonly bars = new Map<string, SingleBar>();
  private readonly rates: StreamRates;

  constructor(now: () => number) {
    this.rates = new StreamRates(now);
    // cli-progress writes the lines from where the bars begin, clearing only the first bar's line: a line shorter
    // than the bar it lands on kept the rest of that bar. Clearing to the end of the screen first leaves none.
    cliLogSink.divert((line) => this.multibar.log(`${CLEAR_TO_END}${line}`));
  }

  update(event: ProgressEvent): void {
    const progress = this.rates.update(event);
    const line = `${event.stream.padEnd(9)} ${bar(progress.fraction)} ${progressDetails(progress)}`;
    const existing = this.bars.get(event.stream);
    if (existing) existing.update(0, { line });
    else this.bars.set(event.stream, this.multibar.create(1, 0, { line }));
  }

  stop(): void {
    this.multibar.update(); // prints log lines still waiting above the bars
    this.multibar.stop();
    cliLogSink.restore();
  }
}

function bar(fraction: number | null): string {
  if (fraction === null) return `[${'·'.repeat(BAR_WIDTH)}]`;
  const full = Math.round(fraction * BAR_WIDTH);
  return `[${'█'.repeat(full)}${'░'.repeat(BAR_WIDTH - full)}]`;
}

/**
 * For logs and pipes: each stream's last state once, when the stream is done (the next stream begins, or the
 * run ends); a stream still going after `intervalMs` also prints a line every `intervalMs` meanwhile.
 */
class LineReporter implements ProgressReporter {
  private readonly rates: StreamRates;
  /** when each stream last printed a line (or began, before its first line) */
  private readonly printedAt = new Map<string, number>();
  /** the latest line of each stream not printed yet, stamped when it was true */
  private readonly pending = new Map<string, { text: string; at: number }>();

  constructor(
    private readonly output: CliOutput,
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {
    this.rates = new StreamRates(now);
  }

  update(event: ProgressEvent): void {
    const text = `${event.runId ? `run ${event.runId}` : 'dry run'} ${event.stream}: ${progressDetails(this.rates.update(event))}`;
    const at = this.now();
    if (!this.printedAt.has(event.stream)) {
      // a new stream: the previous ones are done, their last state goes out first
      this.flush();
      this.printedAt.set(event.stream, at);
    }
    this.pending.set(event.stream, { text, at });
    if (at - this.printedAt.get(event.stream)! >= this.intervalMs) {
      this.pending.delete(event.stream);
      this.printedAt.set(event.stream, at);
      this.print(text, at);
    }
  }

  stop(): void {
    this.flush();
  }

  private flush(): void {
    for (const { text, at } of this.pending.values()) this.print(text, at);
    this.pending.clear();
  }

  private print(text: string, at: number): void {
    this.output.error(`${new Date(at).toISOString()} ${text}`);
  }
}
