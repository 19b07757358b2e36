import * as path from 'path';
import type { CoreStream } from 'tracker-sync/connector';
import type { ReadContext } from 'tracker-sync/connector';
import { createAuthenticator } from './auth/create-authenticator';
import { Redactor } from './http/redactor';
import { Requester } from './http/requester';
import { RetryPolicy } from './http/retry-policy';
import { sourceLimits } from './http/source-limits';
import { GenericCrmSettings } from './settings';
import { ResolvedSource, resolveSource } from './source-config';

/** The resolved source plus what talks to it: auth, limits, retries, redaction. One per read or check. */
export interface SourceSession {
  source: ResolvedSource;
  redactor: Redactor;
  requester(stream: CoreStream | 'check' | 'write_back' | 'stages' | 'discover'): Requester;
}

export function openSession(context: Omit<ReadContext<GenericCrmSettings>, 'state'>): SourceSession {
  const source = resolveSource(context.settings);
  const redactor = new Redactor();
  redactor.add(source.token);
  const auth = createAuthenticator({
    definition: source.auth ?? {},
    token: source.token,
    baseUrl: source.base_url,
    redactor,
    workDir: context.workDir ? path.resolve(context.workDir) : undefined,
    secrets: context.secrets,
  });
  const limits = sourceLimits(context.connectionId, source.rate_limit);
  const retry = new RetryPolicy(source.retry);
  return {
    source,
    redactor,
    requester: (stream) =>
      new Requester({
        baseUrl: source.base_url,
        auth,
        limits,
        retry,
        errors: source.errors ?? [],
        redactor,
        where: `connection ${context.connectionId}, stream ${stream}`,
        timeoutMs: source.retry?.timeout_ms,
        signal: context.signal,
      }),
  };
}
