import { MultiBar, Presets, SingleBar } from 'cli-progress';
import type { ProgressEvent } from '../../engine';
import type { CliOutput } from './cli-output';
import { progressText } from './run-summary.format';

/** Shows a run's progress: bars on a terminal, plain timestamped lines when piped or logged. */
export interface ProgressReporter {
  update(event: ProgressEvent): void;
  stop(): void;
}

export function progressReporter(output: CliOutput): ProgressReporter {
  return output.isTTY ? new BarReporter() : new LineReporter(output);
}

/** One bar per stream: how much of what was read is already settled (sent, unchanged or rejected). */
class BarReporter implements ProgressReporter {
  private readonly multibar = new MultiBar(
    {
      format: '{stream} [{bar}] read {read} · sent {sent} · unchanged {unchanged} · rejected {rejected}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      barsize: 24,
    },
    Presets.shades_classic,
  );
  private readonly bars = new Map<string, SingleBar>();

  update(event: ProgressEvent): void {
    const settled = event.sent + event.unchanged + event.rejected;
    const payload = { ...event, stream: event.stream.padEnd(8) };
    const bar = this.bars.get(event.stream);
    if (!bar) {
      this.bars.set(event.stream, this.multibar.create(Math.max(event.read, 1), settled, payload));
      return;
    }
    bar.setTotal(Math.max(event.read, 1));
    bar.update(settled, payload);
  }

  stop(): void {
    this.multibar.stop();
  }
}

/** A line per change; the engine already limits progress events to about one per second and stream. */
class LineReporter implements ProgressReporter {
  private readonly last = new Map<string, string>();

  constructor(private readonly output: CliOutput) {}

  update(event: ProgressEvent): void {
    const text = progressText(event);
    if (this.last.get(event.stream) === text) return;
    this.last.set(event.stream, text);
    this.output.line(`${new Date().toISOString()} run ${event.runId} ${text}`);
  }

  stop(): void {}
}
