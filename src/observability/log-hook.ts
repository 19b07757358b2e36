import type { LogFn, Logger } from 'pino';
import { runFieldsOf } from './run-fields';

/** Nest's start-up chatter (a line per module and per route): useful when debugging, noise otherwise. */
const NEST_BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);
const DEBUG = 20;

/**
 * pino `hooks.logMethod` of the daemon's logger:
 * - lines of a run get `connection` and `run` fields (see run-fields.ts);
 * - Nest's start-up lines go to debug, so the first screen shows the token, the URL and the demo run.
 */
export function logMethodHook(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const [first, second, ...rest] = args as unknown[];
  const meta = first !== null && typeof first === 'object' && !(first instanceof Error) ? (first as Record<string, unknown>) : null;
  if (level > DEBUG && meta && NEST_BOOT_CONTEXTS.has(meta.context as string)) {
    (this.debug as (...a: unknown[]) => void)(...(args as unknown[]));
    return;
  }
  const message = typeof first === 'string' ? first : typeof second === 'string' ? second : null;
  const fields = message === null ? null : runFieldsOf(message);
  const call = method as (...a: unknown[]) => void;
  if (!fields) return call.apply(this, args as unknown[]);
  if (typeof first === 'string') return call.apply(this, [fields, ...(args as unknown[])]);
  // fields already on the line win; an Error as first argument stays pino's `err`
  const merged = meta ? { ...fields, ...meta } : { ...fields, err: first };
  return call.apply(this, [merged, second, ...rest]);
}
