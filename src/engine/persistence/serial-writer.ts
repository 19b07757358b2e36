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
    return this.enqueue(() => this.recovering(() => this.dataSource.transaction(work)));
  }

  /** Runs `work` (single statements) after every write queued before it. */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(() => this.recovering(() => work(this.dataSource.manager)));
  }

  private async recovering<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.resetSqliteTransaction();
      throw error;
    }
  }

  /**
   * After a failed write (disk I/O error, full disk) TypeORM's one shared SQLite connection can still
   * count itself inside a transaction: the next transaction becomes a SAVEPOINT inside a transaction that
   * is never committed, and every later write is silently lost. End whatever is open and reset the count.
   */
  private async resetSqliteTransaction(): Promise<void> {
    if (this.dataSource.options.type !== 'sqlite') return; // pooled drivers release their connection per transaction
    const runner = (this.dataSource.driver as unknown as { queryRunner?: { isTransactionActive: boolean; transactionDepth: number } }).queryRunner;
    await this.dataSource.query('ROLLBACK').catch(() => undefined); // "no transaction is active" is fine
    if (runner) {
      runner.isTransactionActive = false;
      runner.transactionDepth = 0;
    }
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
