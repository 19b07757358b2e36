import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import axios, { AxiosInstance, AxiosResponse } from 'axios';
import { backoffDelayMs, parseRetryAfterMs, sleep } from '../../http/retry-policy';
import { OPS, OperationKey, TrackerOperation } from '../operations';
import { TrackerApiError } from '../tracker-error';
import { BinaryFile, fileNameFromContentDisposition } from './binary-file';
import { operationLimitFor } from './operation-limits';
import { RateLimits, RateLimitSetting } from './rate-limits';
import type { RequestBudget } from './request-budget';
import { failureOf, parseMaybeJson } from './response-check';
import { secretRedactor } from './secret-redactor';
import { SerializedJson } from './serialized-json';

export interface TrackerLogger {
  warn(msg: string): void;
  debug?(msg: string): void;
}

/** One HTTP attempt, for metrics. `retry` is true when this attempt repeats an earlier one. */
export interface TrackerRequestEvent {
  operation: string;
  status: number | 'network';
  durationMs: number;
  retry: boolean;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  project?: string;
  /** where the config sets the key and project (`projects.acme`), named when the service refuses them; absent: `tracker` */
  configKey?: string;
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
  rateLimit: RateLimitSetting;
  /** the project's budget shared with other processes (the store's); absent: this client's own limiters */
  budget?: RequestBudget;
  logger?: TrackerLogger;
  onRequest?: (event: TrackerRequestEvent) => void;
}

export interface CallRequest {
  pathParams?: Record<string, string | number>;
  query?: Record<string, string | number | undefined | null>;
  body?: unknown;
}

/** Between attempts: exponential backoff from `retryBaseMs`, jittered, at most 30 s; a Retry-After, at most 10 minutes. */
const MAX_BACKOFF_MS = 30_000;
const MAX_RETRY_AFTER_MS = 10 * 60_000;

type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; error: TrackerApiError; retryAfterMs: number | null };

/**
 * The transport: headers, project scoping, error detection, retries and rate limits.
 * Stateless apart from its keep-alive sockets and limiters (`close()` releases both).
 */
export class TrackerHttp {
  private readonly axios: AxiosInstance;
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private readonly httpsAgent = new https.Agent({ keepAlive: true });
  private readonly limits: RateLimits;
  private readonly redact: (v: unknown) => unknown;

  constructor(private readonly options: TransportOptions) {
    this.redact = secretRedactor(options.apiKey);
    this.limits = new RateLimits(options.rateLimit, options.budget);
    this.axios = axios.create({
      baseURL: options.baseUrl,
      timeout: options.timeoutMs,
      httpAgent: this.httpAgent,
      httpsAgent: this.httpsAgent,
      maxBodyLength: Infinity,
      maxContentLength: Infinity,
      maxRedirects: 0,
      validateStatus: () => true,
      headers: {
        'Api-key': options.apiKey,
        'Content-type': 'application/json',
        'Use-Http-Code': '1',
      },
    });
  }

  /** A JSON operation: resolves with the parsed body of an acknowledged answer. */
  call<T>(key: OperationKey, req: CallRequest = {}): Promise<T> {
    return this.withRetries(key, req, (response) => this.jsonOutcome<T>(OPS[key], response), 'json');
  }

  /** A file operation: resolves with the stream and its file name. */
  callBinary(key: OperationKey, req: CallRequest = {}): Promise<BinaryFile> {
    return this.withRetries(key, req, (response) => this.binaryOutcome(OPS[key], response), 'stream');
  }

  async close(): Promise<void> {
    await this.limits.stop();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private async withRetries<T>(
    key: OperationKey,
    req: CallRequest,
    judge: (response: AxiosResponse) => Promise<Attempt<T>>,
    responseType: 'json' | 'stream',
  ): Promise<T> {
    const op: TrackerOperation = OPS[key];
    const url = this.urlFor(op, req.pathParams);
    const params = this.queryFor(op, req.query);
    const limit = this.limits.enabled ? operationLimitFor(key, req.body) : null;
    const body = serializedBody(req.body);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.limits.run(limit, () =>
        this.attemptOnce(op, { url, params, body, responseType, retry: attempt > 1 }, judge),
      );
      if (outcome.ok) return outcome.value;
      const { error } = outcome;
      if (op.createsRecord && error.retryable && mayHaveLanded(error)) throw error.withOutcomeUnknown();
      if (!error.retryable || attempt > this.options.retries) throw error;
      const backoff = { baseMs: this.options.retryBaseMs, maxMs: MAX_BACKOFF_MS, jitter: true };
      const waitMs = outcome.retryAfterMs ?? backoffDelayMs(attempt, backoff);
      if (error.httpStatus === 429) await this.limits.penalize(waitMs);
      this.options.logger?.warn(`${error.message}; retry ${attempt}/${this.options.retries} in ${waitMs} ms`);
      await sleep(waitMs);
    }
  }

  private async attemptOnce<T>(
    op: TrackerOperation,
    a: { url: string; params: Record<string, string>; body: unknown; responseType: 'json' | 'stream'; retry: boolean },
    judge: (response: AxiosResponse) => Promise<Attempt<T>>,
  ): Promise<Attempt<T>> {
    const started = performance.now();
    let response: AxiosResponse;
    try {
      response = await this.axios.request({
        method: op.method,
        url: a.url,
        params: a.params,
        data: a.body,
        responseType: a.responseType,
      });
    } catch (e) {
      this.report(op, 'network', started, a.retry);
      return { ok: false, error: this.networkError(op, e), retryAfterMs: null };
    }
    this.report(op, response.status, started, a.retry);
    return judge(response);
  }

  private async jsonOutcome<T>(op: TrackerOperation, response: AxiosResponse): Promise<Attempt<T>> {
    const body = parseMaybeJson(response.data);
    const error = failureOf(op, response.status, body, this.redact, this.options.project, this.options.configKey);
    if (!error) return { ok: true, value: body as T };
    return { ok: false, error, retryAfterMs: parseRetryAfterMs(response.headers['retry-after'], MAX_RETRY_AFTER_MS) };
  }

  /** A file answer is a failure when its status says so or when it is an error body in JSON. */
  private async binaryOutcome(op: TrackerOperation, response: AxiosResponse): Promise<Attempt<BinaryFile>> {
    const contentType = headerText(response.headers['content-type']);
    const stream = response.data as Readable;
    const looksJson = /json/i.test(contentType ?? '');
    if (response.status >= 200 && response.status < 300 && !looksJson) {
      const fileName = fileNameFromContentDisposition(response.headers['content-disposition']);
      return { ok: true, value: { stream, fileName, contentType } };
    }
    const buffer = await readAll(stream);
    const error = failureOf(op, response.status, parseMaybeJson(buffer.toString('utf8')), this.redact, this.options.project, this.options.configKey);
    if (!error) {
      const fileName = fileNameFromContentDisposition(response.headers['content-disposition']);
      return { ok: true, value: { stream: Readable.from([buffer]), fileName, contentType } };
    }
    return { ok: false, error, retryAfterMs: parseRetryAfterMs(response.headers['retry-after'], MAX_RETRY_AFTER_MS) };
  }

  private networkError(op: TrackerOperation, e: unknown): TrackerApiError {
    // Never keep the axios error: its config carries the request headers, Api-key included.
    const err = e as { code?: string; message?: string };
    const code = err.code ?? 'network_error';
    return new TrackerApiError({
      operation: op.clientMethod,
      endpoint: `${op.method} ${op.path}`,
      httpStatus: null,
      error: code,
      note: String(this.redact(err.message ?? String(e))),
      retryable: !NOT_TRANSIENT.has(code),
    });
  }

  private urlFor(op: TrackerOperation, pathParams: CallRequest['pathParams'] = {}): string {
    return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = pathParams[name];
      if (value === undefined || value === null || value === '') {
        throw new TrackerApiError({
          operation: op.clientMethod,
          endpoint: `${op.method} ${op.path}`,
          httpStatus: null,
          error: 'missing_path_param',
          description: `path parameter ${name} is required`,
          retryable: false,
        });
      }
      return encodeURIComponent(String(value));
    });
  }

  private queryFor(op: TrackerOperation, query: CallRequest['query'] = {}): Record<string, string> {
    const params: Record<string, string> = {};
    if (op.projectScoped) {
      if (!this.options.project) {
        throw new TrackerApiError({
          operation: op.clientMethod,
          endpoint: `${op.method} ${op.path}`,
          httpStatus: null,
          error: 'missing_project',
          description: 'the operation is project-scoped but the client has no project configured',
          retryable: false,
        });
      }
      params.project = this.options.project;
    }
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params[k] = String(v);
    return params;
  }

  private report(op: TrackerOperation, status: number | 'network', started: number, retry: boolean): void {
    const durationMs = performance.now() - started;
    this.options.logger?.debug?.(`tracker ${op.clientMethod} ${op.method} ${op.path} → ${status} in ${durationMs.toFixed(0)} ms`);
    this.options.onRequest?.({ operation: op.clientMethod, status, durationMs, retry });
  }
}

/** Network errors of a request that never reached the service: repeating it cannot create anything twice. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/**
 * A transient failure after which the service may still have processed the request: a timeout, a connection
 * dropped after sending, a 5xx. A 429 says the request was not taken.
 */
function mayHaveLanded(error: TrackerApiError): boolean {
  if (error.httpStatus === null) return !NEVER_SENT.has(error.error ?? '');
  return error.httpStatus !== 429;
}

/** Axios codes of a request that was never valid: repeating it cannot help. */
const NOT_TRANSIENT = new Set(['ERR_INVALID_URL', 'ERR_BAD_OPTION', 'ERR_BAD_OPTION_VALUE', 'ERR_NOT_SUPPORT']);

/**
 * JSON bodies are serialised once, before the first attempt, into a Buffer that axios sends as it is: given an
 * object it would stringify it on every attempt, and given a string it would parse it again to check it.
 */
function serializedBody(body: unknown): unknown {
  if (body instanceof SerializedJson) return body.bytes;
  if (body === undefined || body === null || typeof body !== 'object') return body;
  if (!Array.isArray(body) && Object.getPrototypeOf(body) !== Object.prototype) return body;
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function headerText(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
