import { Get, HttpCode, HttpStatus, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminController } from '../admin-controller.decorator';
import { RejectedRecordListResponse } from '../../application/answers/rejected-record.response';
import { RunIdResponse, RunListResponse, RunResponse } from '../../application/answers/run.response';
import { PageQueryDto, RunsQueryDto } from '../../application/answers/runs-query.dto';
import { RunTriggerService } from '../../application/runs/run-trigger.service';
import { RunsQueryService } from '../../application/runs/runs-query.service';
import { AdminScope, VisibleProjects } from '../auth/admin-scope.decorator';
import { ProjectScope } from '../../application/project-scope';

@AdminController('runs')
export class RunsController {
  constructor(
    private readonly runs: RunsQueryService,
    private readonly triggers: RunTriggerService,
  ) {}

  @Get()
  @AdminScope('list')
  @ApiOperation({ summary: 'runs, newest first' })
  @ApiOkResponse({ type: RunListResponse })
  @ApiBadRequestResponse({ description: 'message lists each problem' })
  list(@Query() query: RunsQueryDto, @VisibleProjects() scope: ProjectScope): Promise<RunListResponse> {
    return this.runs.list(query, scope);
  }

  @Get(':id')
  @AdminScope('run')
  @ApiOkResponse({ type: RunResponse })
  @ApiNotFoundResponse({ description: 'unknown run' })
  get(@Param('id', ParseIntPipe) id: number): Promise<RunResponse> {
    return this.runs.get(id);
  }

  @Get(':id/rejected')
  @AdminScope('run')
  @ApiOkResponse({ type: RejectedRecordListResponse })
  @ApiNotFoundResponse({ description: 'unknown run' })
  rejected(@Param('id', ParseIntPipe) id: number, @Query() page: PageQueryDto): Promise<RejectedRecordListResponse> {
    return this.runs.rejectedOf(id, page);
  }

  @Post(':id/rejected/retry')
  @AdminScope('run', 'operate')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: "re-send the run's rejected records in a new run" })
  @ApiAcceptedResponse({ type: RunIdResponse })
  @ApiConflictResponse({ type: RunIdResponse, description: 'a run of the connection is going' })
  @ApiNotFoundResponse({ description: 'unknown run' })
  async retry(@Param('id', ParseIntPipe) id: number): Promise<RunIdResponse> {
    const { runId } = await this.triggers.retryRejected(id, 'admin');
    return { run_id: runId };
  }
}
