import type { LogDestination } from '../../observability/logger';

/**
 * Where the CLI's log lines go: stderr, so that stdout carries only the answer the user asked for.
 * While progress bars are drawn on the terminal, lines are handed to them instead (`divert`), so that
 * a log line never tears a bar apart.
 */
export class CliLogSink implements LogDestination {
  private diverted: ((line: string) => void) | null = null;

  constructor(private readonly stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr) {}

  get isTTY(): boolean {
    return this.stream.isTTY === true;
  }

  write(line: string): void {
    if (this.diverted) this.diverted(line);
    else this.stream.write(line);
  }

  /** A line of the CLI's own for the terminal: above the bars while they are drawn, else straight to `stream`. */
  aboveBars(line: string, stream: NodeJS.WritableStream): void {
    if (this.diverted) this.diverted(line);
    else stream.write(line);
  }

  /** Sends lines to `to` until `restore()`. */
  divert(to: (line: string) => void): void {
    this.diverted = to;
  }

  restore(): void {
    this.diverted = null;
  }
}

/** The process's one sink: the logger is created with it, the progress bars divert it. */
export const cliLogSink = new CliLogSink();
