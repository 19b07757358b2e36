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
  /** The service refused the Api-key or the project: no call can succeed, the run must stop. */
  refused?: AccessRefusal;
  /**
   * The request may have been processed although no answer says so (a timeout, a dropped connection, a 5xx),
   * and it was not repeated because repeating would create the record twice.
   */
  outcomeUnknown?: boolean;
}

/**
 * What the service refused: the Api-key itself, or the project for this key (`project` = its number); `configKey`:
 * where the config sets them (a block `projects.<name>`), absent for the `tracker:` section.
 */
export type AccessRefusal = ({ what: 'api_key' } | { what: 'project'; project: string | undefined }) & { configKey?: string };

export class TrackerApiError extends Error {
  readonly operation: string;
  readonly endpoint?: string;
  readonly httpStatus: number | null;
  readonly error?: string;
  readonly description?: string;
  readonly details?: unknown;
  readonly body?: unknown;
  readonly retryable: boolean;
  readonly refused?: AccessRefusal;
  readonly outcomeUnknown: boolean;

  constructor(private readonly init: TrackerApiErrorInit) {
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
    this.refused = init.refused;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  /** The same failure of a call that may have landed and was therefore not repeated. */
  withOutcomeUnknown(): TrackerApiError {
    return new TrackerApiError({ ...this.init, outcomeUnknown: true });
  }
}

function describe(init: TrackerApiErrorInit): string {
  const where = init.endpoint ? `${init.operation} (${init.endpoint})` : init.operation;
  const status = init.httpStatus === null ? 'no HTTP answer' : `HTTP ${init.httpStatus}`;
  const parts = [init.error, init.description, init.note].filter((p): p is string => !!p);
  const details = init.details === undefined ? '' : ` details=${safeJson(init.details)}`;
  const said = `${status}${parts.length ? ': ' + parts.join(': ') : ''}${details}`;
  if (init.refused) return `${refusalText(init.refused)}; the service said ${said} (on ${where})`;
  const unknown = init.outcomeUnknown ? '; it may have been processed' : '';
  return `tracker ${where} failed: ${said}${unknown}`;
}

function refusalText(refused: AccessRefusal): string {
  const block = refused.configKey && refused.configKey !== 'tracker' ? refused.configKey : null;
  if (refused.what === 'api_key') {
    return `the service refused the Api-key (${block ? `${block}.api_key, default tracker.api_key` : 'tracker.api_key, env TRACKER_API_KEY'})`;
  }
  return `the service refused project ${refused.project ?? '(none)'} for this Api-key (${block ? `${block}.project` : 'tracker.project, env TRACKER_PROJECT'})`;
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

/** A call that creates a record failed in a way that leaves unknown whether it landed (see `outcomeUnknown`). */
export function isOutcomeUnknown(e: unknown): e is TrackerApiError {
  return e instanceof TrackerApiError && e.outcomeUnknown;
}

/** The service refused the Api-key or the project: the run's problem, never a record's. */
export function isAccessRefusal(e: unknown): e is TrackerApiError & { refused: AccessRefusal } {
  return e instanceof TrackerApiError && e.refused !== undefined;
}
