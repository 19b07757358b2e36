/**
 * A failure no retry of the run lifts soon: the source refused the connection's credentials (a person must act), or
 * its daily quota is spent (until the source's day ends). A connector's error says so with `lasting: true` (the
 * generic CRM's SourceError of refused credentials and its DailyLimitError do). The run fails as any failed run; in
 * cluster mode its job is not tried again after the backoff, where any other failure is (src/scheduler/run-worker.ts).
 */
export function isLastingError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { lasting?: unknown }).lasting === true;
}

/**
 * How far a connector's read error reaches (`reach` on the error): `stream`, that stream's own source failed (a file
 * missing or empty, one endpoint's error, a 403 to the one endpoint the token has no rights for) and the run goes on
 * with the streams that do not depend on it; `source`, every stream would meet it (credentials refused, a daily quota
 * spent, an address the CRM blocked) and the run stops there. Unsaid: `source` for a lasting error, else `stream`.
 */
export type FailureReach = 'stream' | 'source';

export function failureReach(error: unknown): FailureReach {
  const said = typeof error === 'object' && error !== null ? (error as { reach?: unknown }).reach : undefined;
  if (said === 'stream' || said === 'source') return said;
  return isLastingError(error) ? 'source' : 'stream';
}
