/** A run of the connection is going (in this process or another one holding its lease). */
export class RunInProgressError extends Error {
  constructor(
    readonly connectionId: string,
    readonly runId: number | null,
  ) {
    super(`connection ${connectionId}: a run is already in progress${runId != null ? ` (run ${runId})` : ''}`);
    this.name = 'RunInProgressError';
  }
}

/** A scheduled tick that another daemon (or this one) already ran or is running: nothing to do. */
export class ScheduledSlotTakenError extends RunInProgressError {
  constructor(
    connectionId: string,
    runId: number | null,
    readonly slot: string,
  ) {
    super(connectionId, runId);
    this.message = `connection ${connectionId}: the scheduled run of ${slot} was already started by a daemon`;
    this.name = 'ScheduledSlotTakenError';
  }
}

export class UnknownConnectionError extends Error {
  constructor(readonly connectionId: string) {
    super(`connection ${JSON.stringify(connectionId)} is not configured`);
    this.name = 'UnknownConnectionError';
  }
}

export class UnknownRunError extends Error {
  constructor(readonly runId: number) {
    super(`run ${runId} does not exist`);
    this.name = 'UnknownRunError';
  }
}

/** A stream that claims `sorted` yielded an updated_at earlier than the one before it. */
export class StreamSortError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamSortError';
  }
}

/** The connector yielded a page it had already yielded in this run: its paginator loops. */
export class RepeatedPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RepeatedPageError';
  }
}

/** The run lost its lease (another process took it after expiry): it stops at once. */
export class LeaseLostError extends Error {
  constructor(connectionId: string) {
    super(`connection ${connectionId}: the run lost its lease`);
    this.name = 'LeaseLostError';
  }
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** start() options that make no sense (a bad `since`, a stream the connector does not offer, ...). */
export class InvalidRunOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRunOptionsError';
  }
}

/** The engine is shutting down and starts no run. */
export class EngineStoppingError extends Error {
  constructor() {
    super('the sync engine is shutting down; no new run starts');
    this.name = 'EngineStoppingError';
  }
}
