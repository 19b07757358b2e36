/**
 * The engine and the connectors log plain strings scoped by a prefix, `[demo-sheet run 12] ...`
 * (src/engine/engine-logger.ts), and the scheduler writes `connection demo-sheet: run 12 ...`.
 * Lifting those into `connection`, `run` and `project` fields here gives every line of a run its fields in
 * JSON logs, without threading a pino child logger through code that must not know about pino.
 */
const RUN_PREFIX = /^\[([A-Za-z0-9_.-]+)(?: run (\d+))?(?: project=([A-Za-z0-9_-]+))?\] /;
const SCHEDULER_PREFIX = /^connection ([A-Za-z0-9_.-]+): (?:run (\d+)\b)?/;

export interface RunFields {
  connection: string;
  run?: number;
  /** the project the connection feeds, where the config names projects (`[acme-amo run 3 project=acme]`) */
  project?: string;
}

export function runFieldsOf(message: string): RunFields | null {
  const match = RUN_PREFIX.exec(message) ?? SCHEDULER_PREFIX.exec(message);
  if (!match) return null;
  const fields: RunFields = { connection: match[1] };
  if (match[2]) fields.run = Number(match[2]);
  if (match[3]) fields.project = match[3];
  return fields;
}
