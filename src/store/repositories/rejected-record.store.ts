import { DataSource, EntityManager, In } from 'typeorm';
import { RejectedRecordEntity } from '../entities/rejected-record.entity';
import type { RejectedRecordRow } from '../records';

/** rows per INSERT: 200 rows of 11 columns stay below every driver's parameter limit */
const ROWS_PER_INSERT = 200;

export interface Page {
  limit: number;
  offset: number;
}

/** The rejected records of each run (`rejected_record`): written by checkpoints, read by the admin API and retries. */
export class RejectedRecordStore {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(RejectedRecordEntity);
  }

  /** Inside a checkpoint's transaction. */
  static async insert(m: EntityManager, rows: Omit<RejectedRecordRow, 'id'>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await m.getRepository(RejectedRecordEntity).insert(rows.slice(i, i + ROWS_PER_INSERT));
  }

  /** The run's rejected records in the order they were found (stream, then source order), and how many there are. */
  async pageOf(runId: number, page: Page): Promise<{ rows: RejectedRecordRow[]; total: number }> {
    const [rows, total] = await this.repo.findAndCount({ where: { run_id: runId }, order: { id: 'ASC' }, take: page.limit, skip: page.offset });
    return { rows, total };
  }

  countOf(runId: number): Promise<number> {
    return this.repo.countBy({ run_id: runId });
  }

  /** Rejected records per run, for a list of runs (runs without any are absent). */
  async countsOf(runIds: number[]): Promise<Map<number, number>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.repo
      .createQueryBuilder('r')
      .select('r.run_id', 'run_id')
      .addSelect('COUNT(*)', 'count')
      .where({ run_id: In(runIds) })
      .groupBy('r.run_id')
      .getRawMany<{ run_id: number; count: string | number }>();
    return new Map(rows.map((row) => [Number(row.run_id), Number(row.count)]));
  }

  /** The run's rejected records no later run has sent yet (what a retry re-sends). */
  unresolvedOf(runId: number): Promise<RejectedRecordRow[]> {
    return this.repo.findBy({ run_id: runId, resolved: false });
  }

  /** Whether some rejection of the connection is unresolved (then checkpoints resolve those acknowledged). */
  async hasUnresolved(connectionId: string): Promise<boolean> {
    return (await this.repo.countBy({ connection_id: connectionId, resolved: false })) > 0;
  }
}
