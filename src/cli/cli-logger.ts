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
