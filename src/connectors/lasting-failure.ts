/**
 * A failure no retry of the run lifts soon: the source refused the connection's credentials (a person must act), or
 * its daily quota is spent (until the source's day ends). A connector's error says so with `lasting: true` (the
 * generic CRM's SourceError of refused credentials and its DailyLimitError do). The run fails as any failed run; in
 * cluster mode its job is not tried again after the backoff, where any other failure is (src/scheduler/run-worker.ts).
 */
export function isLastingError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { lasting?: unknown }).lasting === true;
}
