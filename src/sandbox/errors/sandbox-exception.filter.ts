import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SERVICE_ERROR_CODES, SandboxError, badRequest, internalError } from './sandbox-error';

/** Header that switches error answers from HTTP 200 to their real status, as the service does. */
export const USE_HTTP_CODE_HEADER = 'use-http-code';

/**
 * Writes every error in the service's body shape. Like the real service, the HTTP status is 200
 * (the code lives only in the body) unless the request carries `Use-Http-Code: 1`.
 */
@Catch()
export class SandboxExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    if (response.headersSent || response.destroyed || request.socket?.destroyed) return;
    const error = toSandboxError(exception);
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    const status = request.headers[USE_HTTP_CODE_HEADER] === '1' ? error.httpStatus : 200;
    response.status(status).json(errorBody(error));
  }
}

export function errorBody(error: SandboxError): Record<string, unknown> {
  return { status: 'error', error: error.code, description: error.description, details: error.details ?? {} };
}

/** Maps Nest's HttpExceptions, body-parser failures and bugs to a SandboxError. */
export function toSandboxError(exception: unknown): SandboxError {
  if (exception instanceof SandboxError) return exception;
  if (isBodyParserError(exception)) {
    if (exception.type === 'entity.parse.failed') return badRequest('body', `body: malformed JSON (${exception.message})`);
    return new SandboxError(exception.status, SERVICE_ERROR_CODES.badRequest, `body: ${exception.message}`, { field: 'body' });
  }
  if (exception instanceof HttpException) return fromHttpException(exception);
  const message = exception instanceof Error ? exception.message : String(exception);
  return internalError(`internal error: ${message}`);
}

/** Nest's own errors; ValidationPipe messages ("name must be a string") start with the field. */
function fromHttpException(exception: HttpException): SandboxError {
  const status = exception.getStatus();
  const code = status === 404 ? SERVICE_ERROR_CODES.notFound : status === 401 ? SERVICE_ERROR_CODES.unauthorized
    : status === 403 ? SERVICE_ERROR_CODES.forbidden : status === 429 ? SERVICE_ERROR_CODES.tooManyRequests
      : status >= 500 ? SERVICE_ERROR_CODES.internal : SERVICE_ERROR_CODES.badRequest;
  const response = exception.getResponse();
  const message = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : undefined;
  const messages = (Array.isArray(message) ? message.map(String) : typeof message === 'string' ? [message] : [exception.message])
    .map(withoutQueryString);
  const field = status === 400 && Array.isArray(message) ? /^[\w.[\]]+/.exec(messages[0])?.[0] : undefined;
  return new SandboxError(status, code, messages.join('; '), field ? { field } : undefined);
}

/**
 * Nest's 404 says "Cannot GET /api/v1/x?key=…": the query string may hold the Api-key (`?key=`, as some clients send
 * it), and an error body must never carry a secret. The path alone names the route.
 */
function withoutQueryString(message: string): string {
  return message.replace(/\?\S*/g, '');
}

interface BodyParserError {
  type: string;
  status: number;
  message: string;
}

function isBodyParserError(value: unknown): value is BodyParserError {
  const candidate = value as Partial<BodyParserError> | null;
  return !!candidate && typeof candidate.type === 'string' && typeof candidate.status === 'number'
    && candidate.type.startsWith('entity.');
}
