import * as path from 'path';
import type { ConnectorSecrets } from 'tracker-sync/connector';
import { Authenticator } from './auth/authenticator';
import { createAuthenticator } from './auth/create-authenticator';
import { Redactor } from './http/redactor';
import { closeSourceLimits, createSourceLimits, SourceLimits } from './http/source-limits';
import { GenericCrmSettings } from './settings';
import { ResolvedSource, resolveSource } from './source-config';

/** What a session is opened with: the connection, its settings and the host's tools. */
export interface SessionContext {
  connectionId: string;
  settings: GenericCrmSettings;
  workDir?: string;
  secrets?: ConnectorSecrets;
  /** the run's session (ReadContext.session, WriteContext.session), when the host opened one */
  session?: unknown;
}

/** The parts of a session every request of the run goes through. */
export interface SessionParts {
  source: ResolvedSource;
  redactor: Redactor;
  auth: Authenticator;
  limits: SourceLimits;
}

/**
 * One run of a connection talking to its CRM: the connector's `open` makes it, `close` ends it. It keeps the
 * resolved source, the redactor, the authenticator (with its OAuth2 token) and one rate limiter with its keep-alive
 * agents, shared by every read, enrichment, write and lead delivery of the run.
 *
 * A limiter per run holds the CRM's documented rate limit for the whole connection because one run of a
 * connection goes at a time across the cluster (its lease; syncs and outbound flows refuse each other). Tokens
 * outlive the run in `context.secrets` (the store) or the work folder's token file, not here: the next run reads
 * them from there, so a rotating refresh token is never refreshed twice.
 *
 * Its parts are made on first use, so a configuration problem (no token, an unknown preset) is the error of the
 * read or write that needed them, named as before.
 */
export class CrmSession {
  private parts: SessionParts | null = null;
  private closed = false;

  constructor(private readonly context: SessionContext) {}

  get(): SessionParts {
    if (this.closed) throw new Error(`connection ${this.context.connectionId}: the CRM session is closed (its run has ended)`);
    if (!this.parts) {
      const source = resolveSource(this.context.settings);
      const redactor = new Redactor();
      redactor.add(source.token);
      const limits = createSourceLimits(source.rate_limit, source.rate_limits);
      try {
        const auth = createAuthenticator({
          definition: source.auth ?? {},
          token: source.token,
          baseUrl: source.base_url,
          redactor,
          workDir: this.context.workDir ? path.resolve(this.context.workDir) : undefined,
          secrets: this.context.secrets,
          agents: limits,
        });
        this.parts = { source, redactor, auth, limits };
      } catch (error) {
        void closeSourceLimits(limits);
        throw error;
      }
    }
    return this.parts;
  }

  /** Destroys the agents' sockets and stops the limiter; the session cannot be used again. */
  async close(): Promise<void> {
    this.closed = true;
    const parts = this.parts;
    this.parts = null;
    if (parts) await closeSourceLimits(parts.limits);
  }
}

/**
 * `fn` with the run's session, or, outside a run (check, discover, catalog, stages, webhook registration from the
 * admin API or the CLI; a test's read), with a session of its own, closed when `fn` ends.
 */
export async function withSession<C extends SessionContext, T>(context: C, fn: (context: C & { session: CrmSession }) => Promise<T>): Promise<T> {
  if (context.session instanceof CrmSession) return fn(context as C & { session: CrmSession });
  const session = new CrmSession(context);
  try {
    return await fn({ ...context, session });
  } finally {
    await session.close();
  }
}

/** withSession for a read or a write that yields: a session of its own lives until the last item or a break. */
export async function* withSessionYielding<C extends SessionContext, T>(context: C, fn: (context: C & { session: CrmSession }) => AsyncIterable<T>): AsyncGenerator<T> {
  if (context.session instanceof CrmSession) {
    yield* fn(context as C & { session: CrmSession });
    return;
  }
  const session = new CrmSession(context);
  try {
    yield* fn({ ...context, session });
  } finally {
    await session.close();
  }
}

/** The session a request of the connector goes through: every entry point opens one (withSession) before it asks. */
export function sessionOf(context: { connectionId: string; session?: unknown }): CrmSession {
  if (context.session instanceof CrmSession) return context.session;
  throw new Error(`connection ${context.connectionId}: generic-crm was asked for a request outside a session (open() or withSession)`);
}
