/** Where the CLI writes: stdout for results, stderr for problems and progress. A seam for tests and scrubbing. */
export interface CliOutput {
  /** one line of results */
  line(text: string): void;
  /** one line about a problem */
  error(text: string): void;
  /** stderr is a terminal: progress is drawn there as bars (otherwise plain lines) */
  isTTY: boolean;
}

export function processOutput(scrub: (text: string) => string = (t) => t): CliOutput {
  return {
    line: (text) => process.stdout.write(`${scrub(text)}\n`),
    error: (text) => process.stderr.write(`${scrub(text)}\n`),
    isTTY: Boolean(process.stderr.isTTY),
  };
}
