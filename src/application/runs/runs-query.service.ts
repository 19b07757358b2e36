import { Injectable } from '@nestjs/common';
import { RejectedRecordStore, RunRow, RunStore } from '../../store';
import type { RunFilter } from '../../store/repositories/run.store';
import { RejectedRecordListResponse, toRejectedRecordResponse } from '../answers/rejected-record.response';
import { RunListResponse, RunResponse, toRunResponse } from '../answers/run.response';
import { RunsQueryDto } from '../answers/runs-query.dto';
import { UnknownRunError } from '../../engine';

/** Reads runs and their rejected records for the admin API and the CLI (read-only). */
@Injectable()
export class RunsQueryService {
  constructor(
    private readonly runs: RunStore,
    private readonly rejected: RejectedRecordStore,
  ) {}

  /** Newest first. */
  async list(query: Pick<RunsQueryDto, 'connection' | 'status' | 'limit' | 'offset'>): Promise<RunListResponse> {
    const { rows, total } = await this.runs.page({ connectionId: query.connection, status: query.status }, query);
    return { runs: await this.withCounts(rows), total, limit: query.limit, offset: query.offset };
  }

  async get(runId: number): Promise<RunResponse> {
    return toRunResponse(await this.row(runId), await this.rejected.countOf(runId));
  }

  /** The run, or UnknownRunError (→ 404). */
  async row(runId: number): Promise<RunRow> {
    const run = await this.runs.get(runId);
    if (!run) throw new UnknownRunError(runId);
    return run;
  }

  /** The connection's last run: of any kind, or the last sync (`direction: 'sync'`), or a flow's last. */
  async lastRun(connectionId: string, filter: Pick<RunFilter, 'direction' | 'flow'> = {}): Promise<RunResponse | null> {
    const run = await this.runs.latestOf(connectionId, filter);
    return run ? (await this.withCounts([run]))[0] : null;
  }

  /** In the order they were found (stream, then source order). */
  async rejectedOf(runId: number, page: { limit: number; offset: number }): Promise<RejectedRecordListResponse> {
    await this.row(runId);
    const { rows, total } = await this.rejected.pageOf(runId, page);
    return { rejected: rows.map(toRejectedRecordResponse), total, limit: page.limit, offset: page.offset };
  }

  private async withCounts(rows: RunRow[]): Promise<RunResponse[]> {
    const counts = await this.rejected.countsOf(rows.map((run) => run.id));
    return rows.map((run) => toRunResponse(run, counts.get(run.id) ?? 0));
  }
}
