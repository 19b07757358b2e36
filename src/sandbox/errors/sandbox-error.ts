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
  return new SandboxError(400, 'invalid_request', text, { field, ...(details ?? {}) });
}

export function notFound(what: string): SandboxError {
  return new SandboxError(404, 'not_found', `${what} not found`);
}

export function unauthorized(description: string): SandboxError {
  return new SandboxError(401, 'unauthorized', description);
}

export function forbidden(description: string): SandboxError {
  return new SandboxError(403, 'forbidden', description);
}

/** 429 with a Retry-After header (seconds). */
export function tooManyRequests(description: string, retryAfterSeconds: number): SandboxError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const error = new SandboxError(429, 'too_many_requests', description, { retry_after: seconds });
  error.headers['Retry-After'] = String(seconds);
  return error;
}

export function internalError(description: string): SandboxError {
  return new SandboxError(500, 'internal_error', description);
}
