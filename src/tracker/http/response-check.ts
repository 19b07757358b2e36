import { AccessRefusal, TrackerApiError } from '../tracker-error';
import { TrackerOperation } from '../operations';
import { isRetryableStatus } from '../../http/retry-policy';

/**
 * Decides whether an answer is an acknowledgement. The real service answers failures
 * with HTTP 200 and `{"status":"error",...}` unless told `Use-Http-Code: 1`; we send that
 * header and still treat any `"status":"error"` body as a failure, whatever its status.
 * `project`: the client's project, named when the service refuses it; `configKey`: where the config sets it.
 */
export function failureOf(
  op: TrackerOperation,
  httpStatus: number,
  body: unknown,
  redact: (v: unknown) => unknown,
  project?: string,
  configKey?: string,
): TrackerApiError | null {
  if (!isErrorBody(body) && httpStatus >= 200 && httpStatus < 300) {
    const reason = unacknowledged(op, body);
    if (!reason) return null;
    return new TrackerApiError({
      operation: op.clientMethod,
      endpoint: `${op.method} ${op.path}`,
      httpStatus,
      description: reason,
      body: redact(body),
      // a page in the service's place (a proxy's maintenance page) usually goes away: tried again as a 5xx would be
      retryable: true,
      note: snippet(redact(body)),
    });
  }
  // Everything below comes from the redacted body: a service may echo the Api-key back.
  const safeBody = redact(body);
  const errorBody = isErrorBody(safeBody) ? safeBody : null;
  const status = statusOf(httpStatus, errorBody?.error);
  return new TrackerApiError({
    operation: op.clientMethod,
    endpoint: `${op.method} ${op.path}`,
    httpStatus: status,
    error: stringOrUndefined(errorBody?.error),
    description: stringOrUndefined(errorBody?.description),
    details: errorBody?.details,
    body: safeBody,
    retryable: isRetryableStatus(status),
    note: errorBody ? (status !== httpStatus ? `answered with HTTP ${httpStatus}` : undefined) : snippet(safeBody),
    refused: accessRefusal(op, status, errorBody?.error, project, configKey),
  });
}

/**
 * The service's error codes with the HTTP status each goes with under `Use-Http-Code: 1`, as public clients of the
 * real service parse them: the n8n community node's helpers/errors.ts (checked on a live project), the Ruby gem's
 * response.rb, a PHP SDK's Engine/Api.php.
 */
const SERVICE_CODE_STATUS: Record<string, number> = {
  authentication_failed: 401,
  access_denied: 403,
  resource_not_found: 404,
  request_data_validation_error: 400,
  request_limit_error: 429,
  internal_error: 500,
  unknown_error: 500,
};

/**
 * The status the failure stands for. Without `Use-Http-Code` (a proxy may drop the header) the service answers 200
 * with the code in the body: `request_limit_error` in a 200 is still a 429 to wait on, `authentication_failed` a 401.
 */
function statusOf(httpStatus: number, code: unknown): number {
  if (httpStatus >= 200 && httpStatus < 300 && typeof code === 'string' && SERVICE_CODE_STATUS[code] !== undefined) {
    return SERVICE_CODE_STATUS[code];
  }
  return httpStatus;
}

/** Error codes of a refused key or project: the service's own, and those of proxies and common APIs. */
const KEY_REFUSED = new Set(['authentication_failed', 'unauthorized', 'unauthorised', 'invalid_api_key', 'api_key_invalid', 'wrong_api_key']);
const PROJECT_REFUSED = new Set(['access_denied', 'forbidden', 'no_access']);

/**
 * 401, or an `authentication_failed` error body (whatever the HTTP status): the Api-key. 403, or `access_denied`:
 * the project (on an operation without a project, the key's own rights).
 */
function accessRefusal(op: TrackerOperation, httpStatus: number, code: unknown, project: string | undefined, configKey: string | undefined): AccessRefusal | undefined {
  const text = typeof code === 'string' ? code.toLowerCase() : '';
  const key = configKey ? { configKey } : {};
  if (httpStatus === 401 || KEY_REFUSED.has(text)) return { what: 'api_key', ...key };
  if (httpStatus === 403 || PROJECT_REFUSED.has(text)) return op.projectScoped ? { what: 'project', project, ...key } : { what: 'api_key', ...key };
  return undefined;
}

/**
 * Why a 2xx answer acknowledges nothing, or null: a text that is not JSON where JSON is due (an HTML page in the
 * service's place), or a write's answer without `"status": "success"` (operations marked `acknowledged`).
 */
function unacknowledged(op: TrackerOperation, body: unknown): string | null {
  if (op.binary) return null;
  if (typeof body === 'string' && body.trim() !== '') return 'the answer is not the service\'s JSON (a proxy\'s or a web page in its place? check tracker.base_url)';
  if (op.acknowledged && (typeof body !== 'object' || body === null || (body as { status?: unknown }).status !== 'success')) {
    return 'the answer does not acknowledge the request (no "status": "success"): nothing it carried counts as delivered';
  }
  return null;
}

interface ErrorBody {
  status: 'error';
  error?: unknown;
  description?: unknown;
  details?: unknown;
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'error';
}

function stringOrUndefined(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function snippet(body: unknown): string | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 300 ? text.slice(0, 300) + '…' : text;
}

/** JSON text → value; anything else stays text. */
export function parseMaybeJson(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  const text = data.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return data;
  try {
    return JSON.parse(text);
  } catch {
    return data;
  }
}
