import type { LogFn, Logger } from 'pino';
import { runFieldsOf } from './run-fields';

/** Nest's start-up chatter (a line per module and per route): useful when debugging, noise otherwise. */
const NEST_BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);
const DEBUG = 20;

/** The project a connection feeds, where the config names projects (else undefined). */
export type ProjectOf = (connectionId: string) => string | undefined;

/**
 * pino `hooks.logMethod` of the daemon's logger:
 * - lines of a run get `connection` and `run` fields (see run-fields.ts), and `project` where `projectOf` knows it
 *   (the scheduler's and the trigger path's lines of a connection too, whose text does not name it);
 * - Nest's start-up lines go to debug, so the first screen shows the token, the URL and the demo run.
 */
export function logMethodHookFor(projectOf?: ProjectOf) {
  return function logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
    hook.call(this, args, method, level, projectOf);
  };
}

function hook(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number, projectOf: ProjectOf | undefined): void {
  const [first, second, ...rest] = args as unknown[];
  const meta = first !== null && typeof first === 'object' && !(first instanceof Error) ? (first as Record<string, unknown>) : null;
  if (level > DEBUG && meta && NEST_BOOT_CONTEXTS.has(meta.context as string)) {
    (this.debug as (...a: unknown[]) => void)(...(args as unknown[]));
    return;
  }
  const message = typeof first === 'string' ? first : typeof second === 'string' ? second : null;
  const fields = message === null ? null : runFieldsOf(message);
  if (fields && !fields.project) {
    const project = projectOf?.(fields.connection);
    if (project) fields.project = project;
  }
  const call = method as (...a: unknown[]) => void;
  if (!fields) return call.apply(this, args as unknown[]);
  if (typeof first === 'string') return call.apply(this, [fields, ...(args as unknown[])]);
  // fields already on the line win; an Error as first argument stays pino's `err`
  const merged = meta ? { ...fields, ...meta } : { ...fields, err: first };
  return call.apply(this, [merged, second, ...rest]);
}
