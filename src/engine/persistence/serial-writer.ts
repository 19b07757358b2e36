import { DataSource, EntityManager } from 'typeorm';

/**
 * One writer per DataSource. TypeORM's SQLite driver shares one connection: two transactions
 * at once would nest (savepoints) or fail, so every write of the engine goes through this queue.
 */
export class SerialWriter {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction, after every write queued before it. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => this.dataSource.transaction(work));
  }

  /** Runs `work` (single statements) after every write queued before it. */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => work(this.dataSource.manager));
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

const writers = new WeakMap<DataSource, SerialWriter>();

export function serialWriter(dataSource: DataSource): SerialWriter {
  let writer = writers.get(dataSource);
  if (!writer) {
    writer = new SerialWriter(dataSource);
    writers.set(dataSource, writer);
  }
  return writer;
}
