import type { LoggerService } from '@nestjs/common';

/**
 * Nest's own start-up lines (modules initialised, every route mapped, application started): about a
 * hundred of them before each command's answer with the embedded sandbox. Nobody ran the CLI to read them.
 */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'NestApplicationContext']);

/** The daemon's logger without the framework's chatter; the framework's warnings and errors still pass. */
export class QuietFrameworkLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (!isFramework(rest)) this.inner.log(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    if (!isFramework(rest)) this.inner.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    if (!isFramework(rest)) this.inner.verbose?.(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...rest);
  }
}

/** Nest passes the context as the last argument. */
function isFramework(rest: unknown[]): boolean {
  const context = rest[rest.length - 1];
  return typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context);
}

type PinoLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * The daemon's pino logger as Nest's logger while the app is being built (before the DI-made one exists):
 * a boot that fails halfway still writes only through it (stderr), never Nest's console lines to stdout.
 */
export class BootLogger implements LoggerService {
  constructor(private readonly pino: Record<PinoLevel, (object: object, message: string) => void> & { isLevelEnabled?(level: string): boolean }) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  /**
   * Nest passes (message, stack?, context?): the context names the line. A CLI line is one line: a stack (a store
   * that does not answer yet, retried) adds only its error's message, the whole stack only at log level debug.
   */
  private write(level: PinoLevel, message: unknown, rest: unknown[]): void {
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const details = rest.slice(0, context === undefined ? rest.length : -1).filter((part): part is string => typeof part === 'string' && part !== '');
    if (this.pino.isLevelEnabled?.('debug')) {
      const text = message instanceof Error ? (message.stack ?? message.message) : String(message);
      this.pino[level]({ context }, [text, ...details].join('\n'));
      return;
    }
    const text = message instanceof Error ? message.message : String(message);
    const reasons = details.map((stack) => stack.split('\n')[0].replace(/^\w*Error: /, ''));
    this.pino[level]({ context }, [text, ...reasons].join(': '));
  }
}
