import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AdminController } from '../admin/admin-controller.decorator';
import { AdminScope, VisibleProjects } from '../admin/auth/admin-scope.decorator';
import { ProjectScope } from '../application/project-scope';
import { RunTriggerService } from '../application/runs/run-trigger.service';
import { TrackerSyncConfig } from '../config/config.schema';
import { projectNameOf } from '../config/project-targets';
import { WebhookCallStore } from '../store/repositories/webhook-call.store';
import { WebhookReceiver } from './webhook-receiver.service';

export class WebhookStatusResponse {
  @ApiProperty() connection: string;
  @ApiProperty({ description: 'the connection has webhook settings' }) enabled: boolean;
  @ApiPropertyOptional({ nullable: true, description: 'ISO time of the last call' }) last_call_at: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'accepted, refused, too_large, rate_limited or paused' }) last_outcome: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'ISO time of the last accepted call' }) last_accepted_at: string | null;
  @ApiProperty({ description: 'a run is due: the debounce of a burst is running' }) run_due: boolean;
  @ApiProperty({ description: 'a run follows the one going' }) follow_up_queued: boolean;
}

/** The last webhook call per connection (the status page's Webhooks column). */
@AdminController('webhooks')
export class WebhookCallsController {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly calls: WebhookCallStore,
    private readonly receiver: WebhookReceiver,
    private readonly trigger: RunTriggerService,
  ) {}

  @Get()
  @AdminScope('list')
  @ApiOperation({ summary: 'the last webhook call of each connection, and whether a run is due' })
  @ApiOkResponse({ type: WebhookStatusResponse, isArray: true })
  async list(@VisibleProjects() scope: ProjectScope): Promise<WebhookStatusResponse[]> {
    const rows = new Map((await this.calls.list()).map((row) => [row.connection_id, row]));
    const due = new Set(this.receiver.waiting());
    return Promise.all(
      this.config.connections.filter((connection) => scope.seesConnection(this.config, connection.id)).map(async (connection) => {
        // a call made while the connection id was another project's is not this one's (project-rows.ts)
        const stored = rows.get(connection.id);
        const row = stored && (stored.project ?? projectNameOf(connection)) === projectNameOf(connection) ? stored : undefined;
        // a sync waiting (a webhook's, or a scheduled tick's it joined); a flow's scheduled tick waiting is not a webhook's run
        const state = await this.trigger.webhookState(connection.id, due.has(connection.id));
        return {
          connection: connection.id,
          enabled: !!connection.webhook,
          last_call_at: row?.last_call_at ?? null,
          last_outcome: row?.last_outcome ?? null,
          last_accepted_at: row?.last_accepted_at || null,
          run_due: state.runDue ?? false,
          follow_up_queued: state.followUpQueued ?? false,
        };
      }),
    );
  }
}
