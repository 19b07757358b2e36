/**
 * A configuration that cannot be used. The message lists every problem on its own line,
 * so the daemon and the CLI can print it as-is and exit non-zero.
 */
export class ConfigError extends Error {
  readonly problems: string[];
  readonly file?: string;

  constructor(problems: string[], file?: string) {
    super(formatMessage(problems, file));
    this.name = 'ConfigError';
    this.problems = problems;
    this.file = file;
  }
}

function formatMessage(problems: string[], file?: string): string {
  const where = file ? `configuration ${file}` : 'configuration';
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return [`Invalid ${where} (${count}):`, ...problems.map((problem) => `  ${problem}`)].join('\n');
}
