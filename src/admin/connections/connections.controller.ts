import { BadRequestException, Body, Delete, Get, HttpCode, HttpException, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiAcceptedResponse, ApiBadGatewayResponse, ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam,
} from '@nestjs/swagger';
import { DiscoverResult, DiscoveryError, DiscoveryService } from '../../discovery/discovery.service';
import type { StageMapping } from '../../connectors/connector-definition';
import type { PreviewResult } from '../../engine';
import { AdminController } from '../admin-controller.decorator';
import { CheckResponse, ClearCursorsResponse } from '../../application/answers/connection.response';
import { OpenRejectionListResponse } from '../../application/answers/open-rejection.response';
import { RunIdResponse } from '../../application/answers/run.response';
import { ConnectionCheckService } from '../../application/connections/connection-check.service';
import { ConnectionStatusListResponse, ConnectionStatusResponse } from '../../application/connections/connection-status.response';
import { ConnectionControlService } from '../../application/connections/connection-control.service';
import { ConnectionStatusService } from '../../application/connections/connection-status.service';
import { OpenRejectionsService } from '../../application/connections/open-rejections.service';
import { SyncPreviewService } from '../../application/connections/sync-preview.service';
import { FlowRunsService } from '../../application/flows/flow-runs.service';
import { RunRequest, RunTriggerService } from '../../application/runs/run-trigger.service';
import { OpenRejectionsQueryDto } from '../dto/open-rejections-query.dto';
import { PreviewDto } from '../dto/preview.dto';
import { ResyncDto } from '../dto/resync.dto';
import { OUTBOUND_FLOW_NAMES } from '../../application/flow-descriptions';
import { AdminScope, VisibleProjects } from '../auth/admin-scope.decorator';
import { ProjectScope } from '../../application/project-scope';
import { ConnectionsQueryDto } from '../dto/connections-query.dto';

@AdminController('connections')
@ApiNotFoundResponse({ description: 'unknown connection' })
export class ConnectionsController {
  constructor(
    private readonly status: ConnectionStatusService,
    private readonly control: ConnectionControlService,
    private readonly triggers: RunTriggerService,
    private readonly checks: ConnectionCheckService,
    private readonly previews: SyncPreviewService,
    private readonly flows: FlowRunsService,
    private readonly openRejections: OpenRejectionsService,
    private readonly discovery: DiscoveryService,
  ) {}

  @Get()
  @AdminScope('list')
  @ApiOperation({ summary: 'every connection (of the token\'s projects), or of one project: ?project=<name>' })
  @ApiOkResponse({ type: ConnectionStatusListResponse })
  @ApiBadRequestResponse({ description: 'message lists each problem' })
  async list(@Query() query: ConnectionsQueryDto, @VisibleProjects() scope: ProjectScope): Promise<ConnectionStatusListResponse> {
    return this.status.overview(scope, query.project);
  }

  @Get(':id')
  @AdminScope('connection')
  @ApiOkResponse({ type: ConnectionStatusResponse })
  get(@Param('id') id: string): Promise<ConnectionStatusResponse> {
    return this.status.get(id);
  }

  @Get(':id/rejected')
  @AdminScope('connection')
  @ApiOperation({
    summary: 'open rejections: records rejected and not fixed yet, whatever run saw them last',
    description:
      'A record enters when a run rejects it and leaves when a later run sends it, or when a complete read of its ' +
      'stream no longer finds it. Per stream, oldest first; `field` and `reason` are those of the latest rejection.',
  })
  @ApiOkResponse({ type: OpenRejectionListResponse })
  @ApiBadRequestResponse({ description: 'message lists each problem' })
  rejected(@Param('id') id: string, @Query() query: OpenRejectionsQueryDto): Promise<OpenRejectionListResponse> {
    return this.openRejections.list(id, query);
  }

  @Post(':id/sync')
  @AdminScope('connection', 'operate')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'start an incremental run' })
  @ApiAcceptedResponse({ type: RunIdResponse })
  @ApiConflictResponse({ type: RunIdResponse, description: 'a run is going; run_id names it' })
  startSync(@Param('id') id: string): Promise<RunIdResponse> {
    return this.start(id, { kind: 'sync', mode: 'incremental' });
  }

  @Post(':id/resync')
  @AdminScope('connection', 'operate')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'start a full run, or one from `since` on' })
  @ApiAcceptedResponse({ type: RunIdResponse })
  @ApiConflictResponse({ type: RunIdResponse, description: 'a run is going; run_id names it' })
  @ApiBadRequestResponse({ description: 'message lists each problem' })
  resync(@Param('id') id: string, @Body() body: ResyncDto): Promise<RunIdResponse> {
    return this.start(id, body.since ? { kind: 'sync', mode: 'since', since: body.since } : { kind: 'sync', mode: 'full' });
  }

  @Post(':id/flows/:flow')
  @AdminScope('connection', 'operate')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    summary: 'start a run of an outbound flow: it reads the service and writes into the CRM',
    description: `Any flow of the registry (${OUTBOUND_FLOW_NAMES.join(', ')}); the run's \`flow_counters\` are the flow's. ` +
      '`write-back` and `deliver-leads` are this route for `write_back` and `leads`.',
  })
  @ApiParam({ name: 'flow', enum: OUTBOUND_FLOW_NAMES })
  @ApiAcceptedResponse({ type: RunIdResponse })
  @ApiConflictResponse({ type: RunIdResponse, description: 'a run is going; run_id names it' })
  @ApiBadRequestResponse({ description: 'no such flow, or the connection has no settings of the flow' })
  startFlow(@Param('id') id: string, @Param('flow') flow: string): Promise<RunIdResponse> {
    return this.startFlowRun(id, flow);
  }

  @Post(':id/write-back')
  @AdminScope('connection', 'operate')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: "write the deals' attribution back into the CRM: POST …/flows/write_back" })
  @ApiAcceptedResponse({ type: RunIdResponse })
  @ApiConflictResponse({ type: RunIdResponse, description: 'a run is going; run_id names it' })
  @ApiBadRequestResponse({ description: 'the connection writes nothing back (no write_back.fields)' })
  writeBack(@Param('id') id: string): Promise<RunIdResponse> {
    return this.startFlowRun(id, 'write_back');
  }

  @Post(':id/deliver-leads')
  @AdminScope('connection', 'operate')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: "deliver the service's new proxy leads into the CRM as deals: POST …/flows/leads" })
  @ApiAcceptedResponse({ type: RunIdResponse })
  @ApiConflictResponse({ type: RunIdResponse, description: 'a run is going; run_id names it' })
  @ApiBadRequestResponse({ description: 'the connection delivers no leads (no settings.lead_delivery)' })
  deliverLeads(@Param('id') id: string): Promise<RunIdResponse> {
    return this.startFlowRun(id, 'leads');
  }

  @Post(':id/pause')
  @AdminScope('connection', 'operate')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ConnectionStatusResponse })
  pause(@Param('id') id: string): Promise<ConnectionStatusResponse> {
    return this.control.pause(id);
  }

  @Post(':id/resume')
  @AdminScope('connection', 'operate')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ConnectionStatusResponse })
  resume(@Param('id') id: string): Promise<ConnectionStatusResponse> {
    return this.control.resume(id);
  }

  @Delete(':id/cursors')
  @AdminScope('connection', 'operate')
  @ApiOperation({ summary: 'forget the cursors: the next incremental run reads from the beginning' })
  @ApiOkResponse({ type: ClearCursorsResponse })
  clearCursors(@Param('id') id: string): Promise<ClearCursorsResponse> {
    return this.control.clearCursors(id);
  }

  @Post(':id/check')
  @AdminScope('connection')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: "run the connector's check: reach the source, verify credentials" })
  @ApiOkResponse({ type: CheckResponse })
  check(@Param('id') id: string): Promise<CheckResponse> {
    return this.checks.check(id);
  }

  @Post(':id/preview')
  @AdminScope('connection')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'dry run: canonical records and the exact payloads with verdicts; nothing is sent' })
  @ApiBadRequestResponse({ description: 'message lists each problem' })
  preview(@Param('id') id: string, @Body() body: PreviewDto): Promise<PreviewResult> {
    return this.previews.preview(id, { stream: body.stream, limit: body.limit });
  }

  /** 202 with the flow run's id (see `start`). */
  private async startFlowRun(connectionId: string, flow: string): Promise<RunIdResponse> {
    const { runId } = await this.flows.start(connectionId, flow, 'admin');
    return { run_id: runId };
  }

  /** 202 with the run's id; the run goes on in the background (a run going: 409 naming it). */
  private async start(connectionId: string, request: RunRequest): Promise<RunIdResponse> {
    const { runId } = await this.triggers.start(connectionId, 'admin', request);
    return { run_id: runId };
  }

  @Get(':id/discover')
  @AdminScope('connection')
  @ApiOperation({
    summary: "the CRM's pipelines and stages (won, lost, open), deal and contact fields, users, and a proposed mapping",
    description: 'The same JSON as `cli discover <connection> --json`. `proposed` holds status_map and visit_field ready to paste under `settings:`.',
  })
  @ApiOkResponse({ description: 'catalog and proposal' })
  @ApiBadRequestResponse({ description: 'the connector lists no stages and fields' })
  @ApiBadGatewayResponse({ description: 'the CRM did not answer the discovery requests' })
  discover(@Param('id') id: string): Promise<DiscoverResult> {
    return discoveryAnswer(() => this.discovery.discover(id));
  }

  @Get(':id/stage-mapping')
  @AdminScope('connection')
  @ApiOperation({ summary: "each CRM stage and the status it is sent with (null: no status_map key covers it; with statuses: register, the stage's own id), with the last run's deals per stage" })
  @ApiOkResponse({ description: '{ stages, last_run, statuses: "map" | "register" }, or null for a connector without stages' })
  async stageMapping(@Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<StageMapping | typeof JSON_NULL> {
    const mapping = await discoveryAnswer(() => this.discovery.stageMapping(id));
    if (mapping !== null) return mapping;
    // Nest answers a null result with an empty body, which is no JSON (the status page's res.json() threw on it)
    res.type('application/json');
    return JSON_NULL;
  }
}

/** The JSON text `null`, sent as it is (a string answer goes out unchanged). */
const JSON_NULL = 'null';

async function discoveryAnswer<T>(answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (!(error instanceof DiscoveryError)) throw error;
    if (error.kind === 'unsupported') throw new BadRequestException(error.message);
    throw new HttpException({ statusCode: 502, error: 'Bad Gateway', message: error.message }, HttpStatus.BAD_GATEWAY);
  }
}
