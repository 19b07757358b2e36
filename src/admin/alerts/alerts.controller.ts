import { Get, HttpCode, HttpStatus, NotFoundException, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AlertsService } from '../../alerts/alerts.service';
import { conditionOf } from '../../alerts/run-conditions';
import { AdminController } from '../admin-controller.decorator';
import { TrackerSyncConfig } from '../../config';
import { ProjectScope } from '../../application/project-scope';
import type { AlertStateRow } from '../../store/records';
import { AdminScope, VisibleProjects } from '../auth/admin-scope.decorator';
import { AlertsQueryDto } from './alerts-query.dto';
import { AlertListResponse, AlertTargetResponse, AlertTestResponse } from './alerts.response';

@AdminController('alerts')
export class AlertsController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly config: TrackerSyncConfig,
  ) {}

  @Get()
  @AdminScope('list')
  @ApiOperation({ summary: 'the configured alerts, the conditions active now, and the messages sent (newest first) with their delivery state' })
  @ApiOkResponse({ type: AlertListResponse })
  @ApiBadRequestResponse({ description: 'message lists each problem' })
  async list(@Query() query: AlertsQueryDto, @VisibleProjects() scope: ProjectScope): Promise<AlertListResponse> {
    // a scoped token sees the alerts that name one of its connections or projects, and of those alone the
    // conditions and messages of its connections (an installation-wide alert's ids and errors are not its to see),
    // made in the project each connection feeds now: not those of a connection id before it moved here, nor an
    // alert written for it in its former project (which no longer watches it)
    const seen = scope.all ? null : new Set(scope.connectionIds(this.config));
    const watchedBy = (alertId: string) => new Set([...seen!].filter((id) => this.alerts.watches(alertId, id)));
    const alerts = seen ? this.alerts.configured().flatMap((a) => namingSeen(a, watchedBy(a.id), scope)) : this.alerts.configured();
    const alertIds = seen ? alerts.map((a) => a.id) : undefined;
    const visible = (row: AlertStateRow) => !seen || (scope.seesRow(this.config, row) && alertIds!.includes(row.alert_id));
    const [active, page] = await Promise.all([
      this.alerts.active(),
      this.alerts.deliveries({
        alertId: query.alert, connectionId: query.connection, projects: seen ? scope.connectionsByProject(this.config) : undefined, alertIds, status: query.status,
      }, { limit: query.limit, offset: query.offset }),
    ]);
    return {
      alerts,
      active: active.filter(visible).map((s) => ({
        alert_id: s.alert_id, connection_id: s.connection_id, ...conditionOf(s.event), since: s.first_at ?? '', last_sent_at: s.last_sent_at ?? '', run_id: s.run_id, message: s.message ?? '',
        delivery: deliveryOf(s), delivery_failures: s.delivery_failures ?? 0, retry_at: s.retry_at ?? null, last_error: s.last_error ?? null,
      })),
      deliveries: page.rows.map((d) => ({ ...d })),
      total: page.total,
      limit: query.limit,
      offset: query.offset,
    };
  }

  @Post(':id/test')
  @AdminScope('installation')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: "sends a test message through the alert's channel (one attempt) and answers how it went" })
  @ApiOkResponse({ type: AlertTestResponse, description: 'status sent or failed (with the reason)' })
  @ApiNotFoundResponse({ description: 'no alert with this id' })
  async test(@Param('id') id: string): Promise<AlertTestResponse> {
    const alert = this.alerts.find(id);
    if (!alert) throw new NotFoundException(`no alert "${id}" in the config`);
    const result = await this.alerts.test(alert);
    return { alert_id: alert.id, type: alert.type, status: result.status, attempts: result.attempts, error: result.error, delivery_id: result.delivery_id };
  }
}

/** How the condition's last send went: delivered, being delivered, or failed (tried again at `retry_at`). */
function deliveryOf(s: AlertStateRow): 'sent' | 'pending' | 'failed' {
  if ((s.delivery_failures ?? 0) > 0) return 'failed';
  return s.last_sent_at && (!s.claimed_at || s.last_sent_at >= s.claimed_at) ? 'sent' : 'pending';
}

/**
 * An alert as a scoped token sees it: one that names some of its connections, with those alone ("*" names none),
 * or one that watches some of its projects (`alerts[].projects`), with those projects alone.
 */
function namingSeen(alert: AlertTargetResponse, seen: ReadonlySet<string>, scope: ProjectScope): AlertTargetResponse[] {
  const connections = alert.connections.filter((id) => seen.has(id));
  const projects = (alert.projects ?? []).filter((name) => scope.seesProject(name));
  if (projects.length) return [{ ...alert, connections: connections.length ? connections : alert.connections.filter((id) => id === '*'), projects }];
  return connections.length ? [{ ...alert, connections, ...(alert.projects ? { projects } : {}) }] : [];
}
