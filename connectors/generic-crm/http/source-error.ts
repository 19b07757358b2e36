import type { FailureReach } from 'tracker-sync/connector';

/** A failure reading the CRM; the message names the connection, stream and request (secrets redacted). */
export class SourceError extends Error {
  /** no retry of the run lifts it soon (isLastingError): refused credentials here, a spent daily quota below */
  readonly lasting: boolean;
  /**
   * failureReach: a refused token stops the run, but a 403 may refuse one endpoint only (amoCRM lists users to
   * administrators, a HubSpot token may lack the owners scope): that stream fails, the others go on
   */
  readonly reach: FailureReach;

  constructor(
    readonly where: string,
    readonly reason: string,
    /** the CRM's HTTP status, when it answered */
    readonly status?: number,
    /** the CRM refused the connection's token or key: the run's problem, never one record's */
    readonly credentialsRefused = false,
    /** the CRM's answer, parsed when it is JSON (a refused write reads the CRM's own message from it) */
    readonly answer?: unknown,
  ) {
    super(`${where}: ${reason}`);
    this.name = 'SourceError';
    this.lasting = credentialsRefused;
    this.reach = credentialsRefused && status !== 403 ? 'source' : 'stream';
  }
}

/** The authenticator could not give a token (an OAuth2 refresh refused): every stream would meet it. */
export class AuthenticationError extends SourceError {
  override readonly reach = 'source';
}

/** The CRM blocked the address after too many requests (settings.rate_block): no record's or feature's refusal. */
export class RateBlockError extends SourceError {
  override readonly reach = 'source';
}

/** The CRM's daily quota is spent (settings.daily_limit): no record's or feature's refusal, and no retry lifts it. */
export class DailyLimitError extends SourceError {
  override readonly lasting = true;
  override readonly reach = 'source';
}

export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
