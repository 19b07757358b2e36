import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsService, SyncService } from '../../engine';
import type { ConnectionRow, CursorRow } from '../../store';
import { OUTBOUND_FLOW_NAMES, OUTBOUND_FLOWS, OutboundFlowName } from '../flow-descriptions';
import { ConnectionState, CursorResponse, FlowStatusResponse } from '../answers/connection.response';
import { RunResponse } from '../answers/run.response';
import { RunsQueryService } from '../runs/runs-query.service';
import { TrackerSyncConfig } from '../../config/config.schema';
import { projectNameOf } from '../../config/project-targets';
import { ProjectScope } from '../project-scope';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';
import { ConnectionStatusResponse, RunFailureResponse } from './connection-status.response';
import { SCHEDULE_CONTROL, ScheduleControl } from './schedule-control';

/**
 * A connection as the admin API and `cli status` show it: state, cursors, last and next run. Its health is its
 * sync's (state and last run follow the syncs only: a lead pass that never touched a CRM that is down says
 * nothing of it); each outbound flow it runs has its own line in `flows`.
 */
@Injectable()
export class ConnectionStatusService {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly sync: SyncService,
    @Inject(SCHEDULE_CONTROL) private readonly scheduler: ScheduleControl,
    private readonly runs: RunsQueryService,
    private readonly scrubber: SecretScrubber,
    private readonly config: TrackerSyncConfig,
  ) {}

  /**
   * The connections the scope sees (of `project` only, when given), in config order. The last runs of all of them
   * are read together (a query for the syncs and one per flow), not two queries per connection: an agency lists hundreds.
   */
  async list(scope = ProjectScope.ALL, project?: string): Promise<ConnectionStatusResponse[]> {
    const seen = new Set(scope.connectionIds(this.config, project));
    const all = (await this.connections.list()).filter((connection) => seen.has(connection.id));
    const ids = all.map((connection) => connection.id);
    const [syncs, ...flows] = await Promise.all([
      this.runs.lastRunsOf(ids, { direction: 'sync' }),
      ...OUTBOUND_FLOW_NAMES.map((flow) => this.runs.lastRunsOf(ids.filter((id) => this.planOf(id, flow)), { direction: 'outbound', flow })),
    ]);
    const lastRunOf: LastRunOf = async (id, flow) => (flow ? flows[OUTBOUND_FLOW_NAMES.indexOf(flow)] : syncs).get(id) ?? null;
    return Promise.all(all.map((connection) => this.describe(connection, lastRunOf)));
  }

  /** Throws UnknownConnectionError (→ 404) for an id the config does not hold. */
  async get(connectionId: string): Promise<ConnectionStatusResponse> {
    const lastRunOf: LastRunOf = (id, flow) => this.runs.lastRun(id, flow ? { direction: 'outbound', flow } : { direction: 'sync' });
    return this.describe(await this.connections.get(connectionId), lastRunOf);
  }

  private async describe(connection: ConnectionRow, lastRunOf: LastRunOf): Promise<ConnectionStatusResponse> {
    const [lastRun, nextRun, cursors, flows] = await Promise.all([
      lastRunOf(connection.id),
      this.scheduler.nextRun(connection.id),
      this.connections.cursors(connection.id),
      this.flowsOf(connection, lastRunOf),
    ]);
    const failure = this.failureAfter(connection.id, lastRun);
    return {
      id: connection.id,
      connector: connection.connector,
      project: projectNameOf(this.config.connections.find((c) => c.id === connection.id) ?? {}),
      schedule: connection.schedule ?? null,
      paused: connection.paused,
      state: this.stateOf(connection, lastRun, failure),
      settings: this.scrubber.scrub(connection.settings ?? {}),
      cursors: cursorMap(cursors),
      last_run: lastRun,
      next_run_at: nextRun ? nextRun.toISOString() : null,
      ticks: this.scheduler.ticksOf(connection.id, 'sync'),
      flows,
      last_failure: failure,
    };
  }

  /** The outbound flows the connection runs, each with its own last run and state. */
  private async flowsOf(connection: ConnectionRow, lastRunOf: LastRunOf): Promise<FlowStatusResponse[]> {
    const planned = OUTBOUND_FLOW_NAMES.map((flow) => ({ flow, plan: this.planOf(connection.id, flow) })).filter((p) => p.plan !== null);
    return Promise.all(planned.map(async ({ flow, plan }) => {
      const lastRun = await lastRunOf(connection.id, flow);
      const next = this.scheduler.nextFlowRun(connection.id, flow, plan!.schedule, connection.paused);
      return {
        flow, title: OUTBOUND_FLOWS[flow].title, schedule: plan!.schedule ?? null,
        state: this.stateOf(connection, lastRun, null),
        last_run: lastRun,
        next_run_at: next ? next.toISOString() : null,
        ticks: this.scheduler.ticksOf(connection.id, flow),
      };
    }));
  }

  private planOf(connectionId: string, flow: OutboundFlowName): { schedule?: string } | null {
    try {
      return this.sync.outboundPlan(connectionId, flow);
    } catch {
      return null; // a connection the config no longer holds
    }
  }

  /** Of the sync, or of one flow (`lastRun` is its last run): a run of it going here is `running`. */
  private stateOf(connection: ConnectionRow, lastRun: RunResponse | null, failure: RunFailureResponse | null): ConnectionState {
    if (lastRun?.status === 'running' && this.sync.isRunning(connection.id)) return 'running';
    if (connection.paused) return 'paused';
    if (failure || lastRun?.status === 'failed') return 'failing';
    return 'idle';
  }

  /** The engine's last unrecorded failure, when it came after everything the store shows of the last run. */
  private failureAfter(connectionId: string, lastRun: RunResponse | null): RunFailureResponse | null {
    const failure = this.sync.lastFailure(connectionId);
    if (!failure) return null;
    const lastStored = lastRun ? Date.parse(lastRun.finished_at ?? lastRun.started_at) : Number.NEGATIVE_INFINITY;
    if (failure.at.getTime() < lastStored) return null;
    return { at: failure.at.toISOString(), error: this.scrubber.text(failure.error) };
  }
}

/** A connection's last sync (no flow) or a flow's last run: read one by one, or from what a list read at once. */
type LastRunOf = (connectionId: string, flow?: OutboundFlowName) => Promise<RunResponse | null>;

function cursorMap(cursors: CursorRow[]): Record<string, CursorResponse> {
  const out: Record<string, CursorResponse> = {};
  for (const cursor of cursors) out[cursor.stream] = { value: cursor.value, set_at: cursor.set_at };
  return out;
}
