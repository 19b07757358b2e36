import { Injectable } from '@nestjs/common';

/**
 * Serialises write transactions. TypeORM's sqlite driver shares one connection, so two
 * concurrent transactions would interleave their statements; one queue keeps each atomic.
 */
@Injectable()
export class SandboxWriteLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
