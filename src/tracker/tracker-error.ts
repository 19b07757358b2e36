/**
 * The one error type of the tracker client. It carries what the service said
 * (`error`, `description`, `details`) and whether another attempt may succeed.
 * The Api-key is never part of it: the transport redacts it from bodies, and no
 * axios error (whose config holds the headers) is ever attached.
 */
export interface TrackerApiErrorInit {
  operation: string;
  /** 'POST /project/add-orders' — where the failure happened. */
  endpoint?: string;
  httpStatus: number | null;
  error?: string;
  description?: string;
  details?: unknown;
  body?: unknown;
  retryable: boolean;
  /** Extra words for the message, e.g. a network error text. */
  note?: string;
}

export class TrackerApiError extends Error {
  readonly operation: string;
  readonly endpoint?: string;
  readonly httpStatus: number | null;
  readonly error?: string;
  readonly description?: string;
  readonly details?: unknown;
  readonly body?: unknown;
  readonly retryable: boolean;

  constructor(init: TrackerApiErrorInit) {
    super(describe(init));
    this.name = 'TrackerApiError';
    this.operation = init.operation;
    this.endpoint = init.endpoint;
    this.httpStatus = init.httpStatus;
    this.error = init.error;
    this.description = init.description;
    this.details = init.details;
    this.body = init.body;
    this.retryable = init.retryable;
  }
}

function describe(init: TrackerApiErrorInit): string {
  const where = init.endpoint ? `${init.operation} (${init.endpoint})` : init.operation;
  const status = init.httpStatus === null ? 'no HTTP answer' : `HTTP ${init.httpStatus}`;
  const parts = [init.error, init.description, init.note].filter((p): p is string => !!p);
  const details = init.details === undefined ? '' : ` details=${safeJson(init.details)}`;
  return `tracker ${where} failed: ${status}${parts.length ? ': ' + parts.join(': ') : ''}${details}`;
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text.length > 500 ? text.slice(0, 500) + '…' : text;
  } catch {
    return String(value);
  }
}

export function isTrackerApiError(e: unknown): e is TrackerApiError {
  return e instanceof TrackerApiError;
}
