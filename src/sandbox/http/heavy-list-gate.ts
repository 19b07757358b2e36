import { Injectable } from '@nestjs/common';

/** The `limit` a list body asks for, when it is a number (the list checks it properly). */
export function requestedLimit(body: Record<string, unknown>): number | undefined {
  const limit = typeof body.limit === 'string' ? Number(body.limit) : body.limit;
  return typeof limit === 'number' && Number.isFinite(limit) ? limit : undefined;
}

/** A list request asking for more than this many records is heavy. */
export const HEAVY_LIST_LIMIT = 1_000;

/**
 * Heavy list answers (more than HEAVY_LIST_LIMIT records) are built one at a time; lighter requests pass at once.
 * Inside the daemon the embedded sandbox shares the heap (192 MB), the CPU and the SQLite threads with the scheduler,
 * the admin API and /health: several answers at the cap in parallel would take them all, one at a time keeps their
 * memory to one answer's chunk and leaves room for the rest. Waiting requests queue in arrival order.
 */
@Injectable()
export class HeavyListGate {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(limit: number | undefined, work: () => Promise<T>): Promise<T> {
    if (limit === undefined || limit <= HEAVY_LIST_LIMIT) return work();
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
