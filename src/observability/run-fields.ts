/**
 * The engine and the connectors log plain strings scoped by a prefix, `[demo-sheet run 12] ...`
 * (src/engine/engine-logger.ts), and the scheduler writes `connection demo-sheet: run 12 ...`.
 * Lifting those into `connection` and `run` fields here gives every line of a run its fields in
 * JSON logs, without threading a pino child logger through code that must not know about pino.
 */
const RUN_PREFIX = /^\[([A-Za-z0-9_.-]+)(?: run (\d+))?\] /;
const SCHEDULER_PREFIX = /^connection ([A-Za-z0-9_.-]+): (?:run (\d+)\b)?/;

export interface RunFields {
  connection: string;
  run?: number;
}

export function runFieldsOf(message: string): RunFields | null {
  const match = RUN_PREFIX.exec(message) ?? SCHEDULER_PREFIX.exec(message);
  if (!match) return null;
  return match[2] ? { connection: match[1], run: Number(match[2]) } : { connection: match[1] };
}
