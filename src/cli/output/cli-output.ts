import { CliLogSink, cliLogSink } from './log-sink';

/** Where the CLI writes: stdout for results, stderr for problems and progress. A seam for tests and scrubbing. */
export interface CliOutput {
  /** one line of results */
  line(text: string): void;
  /** one line about a problem */
  error(text: string): void;
  /** stderr is a terminal: progress is drawn there as bars (otherwise plain lines) */
  isTTY: boolean;
}

type Terminal = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * While progress bars are drawn on the terminal (the sink is diverted), a line for the same terminal goes above
 * them, as the log lines do: written straight to it, it would land inside the bars ("run 12 started" is printed
 * while the run's first page is already drawn). A stdout that is not the terminal (a file, a pipe) keeps its lines.
 */
export function processOutput(
  scrub: (text: string) => string = (t) => t,
  sink: CliLogSink = cliLogSink,
  stdout: Terminal = process.stdout,
  stderr: Terminal = process.stderr,
): CliOutput {
  return {
    line: (text) => (stdout.isTTY ? sink.aboveBars(`${scrub(text)}\n`, stdout) : stdout.write(`${scrub(text)}\n`)),
    error: (text) => sink.aboveBars(`${scrub(text)}\n`, stderr),
    isTTY: Boolean(stderr.isTTY),
  };
}
