import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, In, Repository } from 'typeorm';
import { RejectedRecordEntity, RunEntity } from '../../store';
import { RejectedRecordListResponse, toRejectedRecordResponse } from '../dto/rejected-record.response';
import { RunListResponse, RunResponse, toRunResponse } from '../dto/run.response';
import { RunsQueryDto } from '../dto/runs-query.dto';
import { UnknownRunError } from '../../engine';

/** Reads runs and their rejected records for the admin API and the CLI (read-only). */
@Injectable()
export class RunsQueryService {
  constructor(
    @InjectRepository(RunEntity) private readonly runs: Repository<RunEntity>,
    @InjectRepository(RejectedRecordEntity) private readonly rejected: Repository<RejectedRecordEntity>,
  ) {}

  /** Newest first. */
  async list(query: Pick<RunsQueryDto, 'connection' | 'status' | 'limit' | 'offset'>): Promise<RunListResponse> {
    const where: FindOptionsWhere<RunEntity> = {};
    if (query.connection) where.connection_id = query.connection;
    if (query.status) where.status = query.status;
    const [rows, total] = await this.runs.findAndCount({
      where,
      order: { id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
    return { runs: await this.withCounts(rows), total, limit: query.limit, offset: query.offset };
  }

  async get(runId: number): Promise<RunResponse> {
    return toRunResponse(await this.entity(runId), await this.rejected.countBy({ run_id: runId }));
  }

  async entity(runId: number): Promise<RunEntity> {
    const run = await this.runs.findOneBy({ id: runId });
    if (!run) throw new UnknownRunError(runId);
    return run;
  }

  async lastRun(connectionId: string): Promise<RunResponse | null> {
    const run = await this.runs.findOne({ where: { connection_id: connectionId }, order: { id: 'DESC' } });
    return run ? (await this.withCounts([run]))[0] : null;
  }

  /** In the order they were found (stream, then source order). */
  async rejectedOf(runId: number, page: { limit: number; offset: number }): Promise<RejectedRecordListResponse> {
    await this.entity(runId);
    const [rows, total] = await this.rejected.findAndCount({
      where: { run_id: runId },
      order: { id: 'ASC' },
      take: page.limit,
      skip: page.offset,
    });
    return { rejected: rows.map(toRejectedRecordResponse), total, limit: page.limit, offset: page.offset };
  }

  private async withCounts(rows: RunEntity[]): Promise<RunResponse[]> {
    const counts = await this.rejectedCounts(rows.map((run) => run.id));
    return rows.map((run) => toRunResponse(run, counts.get(run.id) ?? 0));
  }

  private async rejectedCounts(runIds: number[]): Promise<Map<number, number>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.rejected
      .createQueryBuilder('r')
      .select('r.run_id', 'run_id')
      .addSelect('COUNT(*)', 'count')
      .where({ run_id: In(runIds) })
      .groupBy('r.run_id')
      .getRawMany<{ run_id: number; count: string | number }>();
    return new Map(rows.map((row) => [Number(row.run_id), Number(row.count)]));
  }
}
