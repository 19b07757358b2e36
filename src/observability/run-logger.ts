import type { Logger } from 'pino';

/** The logger shape the engine and connectors receive: plain methods, bound to one connection and run. */
export interface RunLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

/** Every line of a run carries the connection and the run id (as fields in JSON, as a prefix in pretty mode). */
export function runLogger(root: Logger, connection: string, run?: number | null): RunLogger {
  const child = root.child({ connection, ...(run != null ? { run } : {}) });
  const prefix = run != null ? `[${connection} run ${run}] ` : `[${connection}] `;
  return {
    log: (m) => child.info(prefix + m),
    warn: (m) => child.warn(prefix + m),
    error: (m) => child.error(prefix + m),
    debug: (m) => child.debug(prefix + m),
  };
}
