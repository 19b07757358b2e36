import type { CoreStream } from 'tracker-sync/connector';
import { sessionOf } from './crm-session';
import { Redactor } from './http/redactor';
import { Requester } from './http/requester';
import { RetryPolicy } from './http/retry-policy';
import type { RetryDefinition } from './definition/source-definition';
import { ResolvedSource } from './source-config';

/** The resolved source plus what talks to it: auth, limits, retries, redaction, all of the run's CrmSession. */
export interface SourceSession {
  source: ResolvedSource;
  redactor: Redactor;
  /** `retry` replaces the source's (lead delivery sends its creates once: a create is looked up, never blindly repeated) */
  requester(stream: CoreStream | 'check' | 'write_back' | 'stages' | 'discover' | 'lead_delivery' | 'webhooks' | 'actions', retry?: RetryDefinition): Requester;
}

/**
 * What one call (a stream's read, a write, a listing) uses of the session in its context: requesters named after
 * the call, stopped by its signal, through the session's authenticator, limiter and agents.
 */
export function sourceSession(context: { connectionId: string; session?: unknown; signal?: AbortSignal }): SourceSession {
  const { source, redactor, auth, limits } = sessionOf(context).get();
  const retry = new RetryPolicy(source.retry);
  return {
    source,
    redactor,
    requester: (stream, retryOverride) =>
      new Requester({
        baseUrl: source.base_url,
        auth,
        limits,
        retry: retryOverride ? new RetryPolicy({ ...source.retry, ...retryOverride }) : retry,
        errors: source.errors ?? [],
        rateBlock: source.rate_block,
        dailyLimit: source.daily_limit,
        redactor,
        where: `connection ${context.connectionId}, stream ${stream}`,
        timeoutMs: source.retry?.timeout_ms,
        signal: context.signal,
      }),
  };
}
