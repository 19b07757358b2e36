/** A failure reading the CRM; the message names the connection, stream and request (secrets redacted). */
export class SourceError extends Error {
  /** no retry of the run lifts it soon (isLastingError): refused credentials here, a spent daily quota below */
  readonly lasting: boolean;

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
  }
}

/** The CRM blocked the address after too many requests (settings.rate_block): no record's or feature's refusal. */
export class RateBlockError extends SourceError {}

/** The CRM's daily quota is spent (settings.daily_limit): no record's or feature's refusal, and no retry lifts it. */
export class DailyLimitError extends SourceError {
  override readonly lasting = true;
}

export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
