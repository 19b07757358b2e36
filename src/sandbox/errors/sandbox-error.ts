/**
 * The service's error codes, as public clients of the real service parse them (the README's table names each source):
 * the n8n community node's helpers/errors.ts (checked against a live project), the Ruby gem's response.rb, a PHP SDK's
 * Engine/Api.php. With `Use-Http-Code: 1` each goes with its HTTP status.
 */
export const SERVICE_ERROR_CODES = {
  badRequest: 'request_data_validation_error',
  unauthorized: 'authentication_failed',
  forbidden: 'access_denied',
  notFound: 'resource_not_found',
  tooManyRequests: 'request_limit_error',
  internal: 'internal_error',
} as const;

/**
 * An error the sandbox answers in the service's error body
 * `{"status":"error","error":code,"description":...,"details":{...}}`.
 * `httpStatus` is only sent as the real status when the request carries `Use-Http-Code: 1`.
 */
export class SandboxError extends Error {
  /** Extra response headers (e.g. Retry-After on 429). */
  headers: Record<string, string> = {};

  constructor(
    public httpStatus: number,
    public code: string,
    public description: string,
    public details?: Record<string, unknown>,
  ) {
    super(description);
    this.name = 'SandboxError';
  }
}

/** 400 for a bad request; the description names the offending field. */
export function badRequest(field: string, description: string, details?: Record<string, unknown>): SandboxError {
  const text = description.includes(field) ? description : `${field}: ${description}`;
  return new SandboxError(400, SERVICE_ERROR_CODES.badRequest, text, { field, ...(details ?? {}) });
}

export function notFound(what: string): SandboxError {
  return notFoundError(`${what} not found`);
}

/** 404 with the whole description given. */
export function notFoundError(description: string): SandboxError {
  return new SandboxError(404, SERVICE_ERROR_CODES.notFound, description);
}

export function unauthorized(description: string): SandboxError {
  return new SandboxError(401, SERVICE_ERROR_CODES.unauthorized, description);
}

export function forbidden(description: string): SandboxError {
  return new SandboxError(403, SERVICE_ERROR_CODES.forbidden, description);
}

/** 429 with a Retry-After header (seconds). */
export function tooManyRequests(description: string, retryAfterSeconds: number): SandboxError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const error = new SandboxError(429, SERVICE_ERROR_CODES.tooManyRequests, description, { retry_after: seconds });
  error.headers['Retry-After'] = String(seconds);
  return error;
}

export function internalError(description: string): SandboxError {
  return new SandboxError(500, SERVICE_ERROR_CODES.internal, description);
}
