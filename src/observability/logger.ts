import pino, { Logger } from 'pino';
import pretty from 'pino-pretty';

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

export function createLogger(options: LogOptions = {}): Logger {
  const base = { level: options.level ?? 'info', redact: { paths: REDACT_PATHS, censor: '***' }, base: undefined };
  if (options.format === 'json') return pino(base);
  // synchronous pretty stream: lines appear in order with the progress output, no worker thread
  const stream = pretty({
    sync: true,
    colorize: process.stdout.isTTY === true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
  return pino(base, stream);
}
