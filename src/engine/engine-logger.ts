import { Logger } from '@nestjs/common';

/** What the engine logs through; injected (token ENGINE_LOGGER) or Nest's Logger by default. */
export interface EngineLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

export const ENGINE_LOGGER = 'ENGINE_LOGGER';

export function defaultEngineLogger(): EngineLogger {
  const nest = new Logger('SyncEngine');
  return { log: (m) => nest.log(m), warn: (m) => nest.warn(m), error: (m) => nest.error(m), debug: (m) => nest.debug(m) };
}

/** Every line of a run names its connection and run, and its project where the config names projects. */
export function runScopedLogger(root: EngineLogger, connectionId: string, runId: number | null, project?: string): Required<EngineLogger> {
  const prefix = `[${connectionId}${runId == null ? '' : ` run ${runId}`}${project ? ` project=${project}` : ''}] `;
  return {
    log: (m) => root.log(prefix + m),
    warn: (m) => root.warn(prefix + m),
    error: (m) => root.error(prefix + m),
    debug: (m) => root.debug?.(prefix + m),
  };
}
