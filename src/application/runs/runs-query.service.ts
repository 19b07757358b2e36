import { Injectable } from '@nestjs/common';
import { RejectedRecordStore, RunRow, RunStore } from '../../store';
import type { RunFilter } from '../../store/repositories/run.store';
import { RejectedRecordListResponse, toRejectedRecordResponse } from '../answers/rejected-record.response';
import { RunListResponse, RunResponse, toRunResponse } from '../answers/run.response';
import { RunsQueryDto } from '../answers/runs-query.dto';
import { UnknownRunError } from '../../engine';
import { TrackerSyncConfig } from '../../config/config.schema';
import { ProjectScope } from '../project-scope';

/** Reads runs and their rejected records for the admin API and the CLI (read-only). */
@Injectable()
export class RunsQueryService {
  constructor(
    private readonly runs: RunStore,
    private readonly rejected: RejectedRecordStore,
    private readonly config: TrackerSyncConfig,
  ) {}

  /**
   * Newest first; with a scope, only the runs of the connections it sees, made in the project each has now (not
   * those a connection id made in another project before it moved: ProjectScope.seesRow).
   */
  async list(query: Pick<RunsQueryDto, 'connection' | 'status' | 'limit' | 'offset'>, scope = ProjectScope.ALL): Promise<RunListResponse> {
    const projects = scope.all ? undefined : scope.connectionsByProject(this.config);
    const { rows, total } = await this.runs.page({ connectionId: query.connection, projects, status: query.status }, query);
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

  /**
   * The connection's last run in the project it feeds now (whoever asks: its state is that project's): of any kind,
   * or the last sync (`direction: 'sync'`), or a flow's last.
   */
  async lastRun(connectionId: string, filter: Pick<RunFilter, 'direction' | 'flow'> = {}): Promise<RunResponse | null> {
    const run = await this.runs.latestOf(connectionId, { ...filter, projects: ProjectScope.ALL.connectionsByProject(this.config, [connectionId]) });
    return run ? (await this.withCounts([run]))[0] : null;
  }

  /** The last run of each of these connections in its project of now (the last sync, `direction: 'sync'`; a flow's last), by connection id (those without one are left out). */
  async lastRunsOf(connectionIds: readonly string[], filter: Pick<RunFilter, 'direction' | 'flow'> = {}): Promise<Map<string, RunResponse>> {
    if (!connectionIds.length) return new Map();
    const rows = await this.runs.latestOfEach(connectionIds, { ...filter, projects: ProjectScope.ALL.connectionsByProject(this.config, connectionIds) });
    return new Map((await this.withCounts(rows)).map((run) => [run.connection_id, run]));
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
