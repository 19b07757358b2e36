import pino, { Logger, LoggerOptions } from 'pino';
import { logMethodHookFor, ProjectOf } from './log-hook';

export interface LogOptions {
  level?: string;
  /** 'pretty' for people (default), 'json' for log collectors (LOG_FORMAT=json) */
  format?: 'pretty' | 'json';
}

/**
 * Paths that may carry secrets in structured log objects. Message strings are kept free of
 * secrets by the code that writes them (errors never include keys or tokens).
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["api-key"]',
  '*.api_key',
  '*.apiKey',
  '*.token',
  '*.password',
  '*.client_secret',
  '*.refresh_token',
];

/** Where log lines go: `process.stdout` for the daemon, stderr for the CLI (its stdout is the answer). */
export interface LogDestination {
  write(line: string): unknown;
  isTTY?: boolean;
}

/**
 * Both formats write through `process.stdout` (synchronous on Linux for files, pipes and terminals)
 * rather than a file descriptor of their own: log lines then stay in order with the one-time token
 * notice, and a process embedding the daemon sees every line.
 */
export function createLogger(options: LogOptions = {}, destination: LogDestination = process.stdout, projectOf?: ProjectOf): Logger {
  const base: LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '***' },
    base: undefined,
    hooks: { logMethod: logMethodHookFor(projectOf) },
  };
  if (options.format === 'json') return pino(base, { write: (line: string) => destination.write(line) });
  // required here: a JSON logger (LOG_FORMAT=json, the benchmarks, log collectors) never loads the prettifier
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  const prettify = prettyFactory({
    colorize: destination.isTTY === true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    // connection, run and project are already in the message's "[demo-sheet run 3]" prefix
    ignore: 'pid,hostname,context,req,reqId,res,responseTime,connection,run,project',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
  // formatted in the caller's tick: no worker thread, no stream buffering between lines
  const stream = { write: (line: string) => destination.write(prettify(line)) };
  return pino(base, stream);
}
