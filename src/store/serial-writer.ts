import { DataSource, EntityManager } from 'typeorm';

/** Transactions committed together at most: bounds one commit's size and the work a failure repeats. */
const MAX_GROUP = 32;

interface Job {
  work: (manager: EntityManager) => Promise<unknown>;
  /** a transaction (may share a commit with its neighbours) rather than a single statement */
  transactional: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * One writer per DataSource. TypeORM's SQLite driver shares one connection: two transactions
 * at once would nest (savepoints) or fail, so every write of the engine goes through this queue.
 *
 * Group commit: transactions that queued up while the previous write ran are committed together, in
 * queue order, in ONE transaction. A commit costs several turns of the event loop (BEGIN, the
 * statements, COMMIT), and while a sync keeps the loop busy each turn is long: one commit per
 * acknowledged batch made the store, not the service, the limit of a run. If a shared commit fails,
 * each of its transactions is tried again alone, so one bad write does not take the others down.
 */
export class SerialWriter {
  private readonly queue: Job[] = [];
  private pumping = false;
  /** the last write the store refused, until a write succeeds after it (see writeFailure) */
  private failure: StoreWriteFailure | null = null;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * The store refuses writes: its last write failed (a full disk, an I/O error, a lock held too long) no longer
   * ago than `withinMs`, and no write has succeeded since; null otherwise. A write that changed no row proves
   * nothing (SQLite takes it on a full disk) and a constraint violation is the caller's, not the store's.
   * /health reports the store down meanwhile: every write happens here, and a daemon writes its heartbeat
   * every few seconds, so the answer follows the store within seconds either way.
   */
  writeFailure(withinMs = WRITE_FAILURE_WINDOW_MS): StoreWriteFailure | null {
    if (!this.failure || Date.now() - Date.parse(this.failure.at) > withinMs) return null;
    return { ...this.failure };
  }

  /** Runs `work` in one transaction, after every write queued before it. `work` must only write to the store. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(work, true);
  }

  /** Runs `work` (single statements) after every write queued before it. */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(work, false);
  }

  private enqueue<T>(work: (manager: EntityManager) => Promise<T>, transactional: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, transactional, resolve: resolve as (value: unknown) => void, reject });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) await this.execute(this.takeNext());
    } finally {
      this.pumping = false;
    }
  }

  /** The next write, or the run of consecutive transactions at the head of the queue. */
  private takeNext(): Job[] {
    if (!this.queue[0].transactional) return this.queue.splice(0, 1);
    let count = 1;
    while (count < this.queue.length && count < MAX_GROUP && this.queue[count].transactional) count++;
    return this.queue.splice(0, count);
  }

  private async execute(jobs: Job[]): Promise<void> {
    if (jobs.length === 1) {
      const [job] = jobs;
      const run = job.transactional ? () => this.dataSource.transaction(job.work) : () => job.work(this.dataSource.manager);
      await this.recovering(run).then(job.resolve, job.reject);
      return;
    }
    let results: unknown[];
    try {
      results = await this.recovering(() => this.dataSource.transaction(async (manager) => {
        const out: unknown[] = [];
        for (const job of jobs) out.push(await job.work(manager));
        return out;
      }));
    } catch {
      for (const job of jobs) await this.execute([job]);
      return;
    }
    jobs.forEach((job, index) => job.resolve(results[index]));
  }

  private async recovering<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      if (!changedNothing(result)) this.failure = null;
      return result;
    } catch (error) {
      if (!isConstraintViolation(error)) this.failure = { at: new Date().toISOString(), error: error instanceof Error ? error.message : String(error) };
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
}

/** How long a refused write keeps the store reported down when nothing was written since (neither way). */
export const WRITE_FAILURE_WINDOW_MS = 2 * 60_000;

/** A write the store refused: when, and its error (e.g. `SQLITE_FULL: database or disk is full`). */
export interface StoreWriteFailure {
  at: string;
  error: string;
}

/** An UPDATE or DELETE that matched no row: it wrote nothing, so it says nothing of whether the store can write. */
function changedNothing(result: unknown): boolean {
  return typeof result === 'object' && result !== null && 'affected' in result && (result as { affected?: number | null }).affected === 0;
}

/** A unique or foreign-key violation (SQLite SQLITE_CONSTRAINT*, PostgreSQL class 23): the statement's fault, not the store's. */
function isConstraintViolation(error: unknown): boolean {
  const e = error as { code?: unknown; driverError?: { code?: unknown }; message?: unknown };
  const code = String(e?.driverError?.code ?? e?.code ?? '');
  return code.startsWith('SQLITE_CONSTRAINT') || /^23\d{3}$/.test(code) || /SQLITE_CONSTRAINT/.test(String(e?.message ?? ''));
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
