import { Inject, Injectable, Optional } from '@nestjs/common';
import { ConnectionsService, SyncService } from '../../engine';
import type { ConnectionRow, CursorRow } from '../../store';
import { DaemonStore, isLiveDaemon } from '../../store/repositories/daemon.store';
import { LeaseStore } from '../../store/repositories/lease.store';
import { localProcessState } from '../../store/local-process';
import { RunQueue } from '../../cluster/run-queue';
import { DEFAULT_RECENT_MS, HEARTBEAT_OPTIONS, HeartbeatOptions } from '../../cluster/heartbeat-options';
import { OUTBOUND_FLOW_NAMES, OUTBOUND_FLOWS, OutboundFlowName } from '../flow-descriptions';
import { ConnectionState, CursorResponse, FlowStatusResponse } from '../answers/connection.response';
import { RunResponse } from '../answers/run.response';
import { RunsQueryService } from '../runs/runs-query.service';
import { TrackerSyncConfig } from '../../config/config.schema';
import { projectNameOf } from '../../config/project-targets';
import { ProjectScope } from '../project-scope';
import { SecretScrubber } from '../../secrets/secret-scrubber.service';
import { ConnectionStatusListResponse, ConnectionStatusResponse, RunFailureResponse } from './connection-status.response';
import { SCHEDULE_CONTROL, ScheduleControl, ScheduleHalt } from './schedule-control';

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
    private readonly daemons: DaemonStore,
    private readonly leases: LeaseStore,
    @Optional() @Inject(RunQueue) private readonly queue: RunQueue | null = null,
    @Optional() @Inject(HEARTBEAT_OPTIONS) private readonly heartbeat: HeartbeatOptions | null = null,
  ) {}

  /** GET /api/connections and `cli status`: the connections, and why the schedules do not fire now (null while they do). */
  async overview(scope = ProjectScope.ALL, project?: string): Promise<ConnectionStatusListResponse> {
    const halt = await this.scheduler.halted();
    return { connections: await this.listWith(halt, scope, project), schedules_halted: halt };
  }

  /**
   * The connections the scope sees (of `project` only, when given), in config order. The last runs of all of them
   * are read together (a query for the syncs and one per flow), not two queries per connection: an agency lists hundreds.
   */
  async list(scope = ProjectScope.ALL, project?: string): Promise<ConnectionStatusResponse[]> {
    return this.listWith(await this.scheduler.halted(), scope, project);
  }

  private async listWith(halt: ScheduleHalt | null, scope: ProjectScope, project?: string): Promise<ConnectionStatusResponse[]> {
    const seen = new Set(scope.connectionIds(this.config, project));
    const all = (await this.connections.list()).filter((connection) => seen.has(connection.id));
    const ids = all.map((connection) => connection.id);
    const [syncs, ...flows] = await Promise.all([
      this.runs.lastRunsOf(ids, { direction: 'sync' }),
      ...OUTBOUND_FLOW_NAMES.map((flow) => this.runs.lastRunsOf(ids.filter((id) => this.planOf(id, flow)), { direction: 'outbound', flow })),
    ]);
    const lastRunOf: LastRunOf = async (id, flow) => (flow ? flows[OUTBOUND_FLOW_NAMES.indexOf(flow)] : syncs).get(id) ?? null;
    const going = this.liveness();
    return Promise.all(all.map((connection) => this.describe(connection, lastRunOf, going, halt)));
  }

  /** Throws UnknownConnectionError (→ 404) for an id the config does not hold. */
  async get(connectionId: string): Promise<ConnectionStatusResponse> {
    const lastRunOf: LastRunOf = (id, flow) => this.runs.lastRun(id, flow ? { direction: 'outbound', flow } : { direction: 'sync' });
    const connection = await this.connections.get(connectionId);
    return this.describe(connection, lastRunOf, this.liveness(), await this.scheduler.halted());
  }

  private async describe(connection: ConnectionRow, lastRunOf: LastRunOf, going: RunGoing, halt: ScheduleHalt | null): Promise<ConnectionStatusResponse> {
    const [lastRun, nextRun, cursors, flows] = await Promise.all([
      lastRunOf(connection.id),
      this.scheduler.nextRun(connection.id),
      this.connections.cursors(connection.id),
      this.flowsOf(connection, lastRunOf, going, halt),
    ]);
    const failure = this.failureAfter(connection.id, lastRun);
    // a next run is promised only while something fires it
    const halted = halt && connection.schedule && !connection.paused ? halt.message : null;
    return {
      id: connection.id,
      connector: connection.connector,
      project: projectNameOf(this.config.connections.find((c) => c.id === connection.id) ?? {}),
      schedule: connection.schedule ?? null,
      paused: connection.paused,
      state: this.stateOf(connection, await going(connection.id, lastRun), failure),
      settings: this.scrubber.scrub(connection.settings ?? {}),
      cursors: cursorMap(cursors),
      last_run: lastRun,
      next_run_at: nextRun && !halted ? nextRun.toISOString() : null,
      schedule_halted: halted,
      ticks: this.scheduler.ticksOf(connection.id, 'sync'),
      flows,
      last_failure: failure,
    };
  }

  /** The outbound flows the connection runs, each with its own last run and state. */
  private async flowsOf(connection: ConnectionRow, lastRunOf: LastRunOf, going: RunGoing, halt: ScheduleHalt | null): Promise<FlowStatusResponse[]> {
    const planned = OUTBOUND_FLOW_NAMES.map((flow) => ({ flow, plan: this.planOf(connection.id, flow) })).filter((p) => p.plan !== null);
    return Promise.all(planned.map(async ({ flow, plan }) => {
      const lastRun = await lastRunOf(connection.id, flow);
      const next = this.scheduler.nextFlowRun(connection.id, flow, plan!.schedule, connection.paused);
      const halted = halt && plan!.schedule && !connection.paused ? halt.message : null;
      return {
        flow, title: OUTBOUND_FLOWS[flow].title, schedule: plan!.schedule ?? null,
        state: this.stateOf(connection, await going(connection.id, lastRun), null),
        last_run: lastRun,
        next_run_at: next && !halted ? next.toISOString() : null,
        schedule_halted: halted,
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

  /** Of the sync, or of one flow (`lastRun` is its last run; `going`: it is running, here or in a live process). */
  private stateOf(connection: ConnectionRow, { lastRun, going }: { lastRun: RunResponse | null; going: boolean }, failure: RunFailureResponse | null): ConnectionState {
    if (going) return 'running';
    if (connection.paused) return 'paused';
    if (failure || lastRun?.status === 'failed') return 'failing';
    return 'idle';
  }

  /**
   * Whether a run the store shows `running` is going: here, or in a process that is up. The store's row alone
   * does not say (a daemon killed mid-run leaves it `running` until the next start), nor does this process (the
   * CLI runs nothing of the daemon's). Its holder is up when it is a process of this machine that exists, a daemon
   * whose heartbeat is fresh, or (a CLI sync, which writes no heartbeat) the holder of the connection's lease while
   * that lease is renewed. Cluster mode: a daemon that works the runs queue (while Redis cannot tell, the store's word).
   * One per answer: the queue's workers are read once.
   */
  private liveness(): RunGoing {
    let workers: Promise<string[] | null> | undefined;
    const recentMs = this.heartbeat?.recentMs ?? DEFAULT_RECENT_MS;
    const holderUp = async (connectionId: string, holder: string | null, runId: number): Promise<boolean> => {
      if (holder === this.sync.holderId) return false; // ours, and not going here: left by an earlier process of ours
      if (this.queue) {
        workers ??= this.queue.workerNames().catch(() => null);
        const names = await workers;
        return names === null || (!!holder && names.includes(holder));
      }
      const local = localProcessState(holder);
      if (local === 'alive') return true;
      if (local === 'gone' || local === 'ending') return false;
      const daemon = holder ? await this.daemons.get(holder) : null;
      if (daemon) return isLiveDaemon(daemon, recentMs);
      const lease = await this.leases.current(connectionId);
      return !!lease && (holder ? lease.holder === holder : lease.run_id === runId) && Date.parse(lease.expires_at) > Date.now();
    };
    return async (connectionId, lastRun) => {
      if (lastRun?.status !== 'running') return { lastRun, going: false };
      if (this.sync.isRunning(connectionId)) return { lastRun, going: true };
      const row = await this.runs.row(lastRun.id).catch(() => null);
      return { lastRun, going: !!row && row.status === 'running' && (await holderUp(connectionId, row.holder, row.id)) };
    };
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

/** Whether the last run (of the sync or a flow) is going now, with that run. */
type RunGoing = (connectionId: string, lastRun: RunResponse | null) => Promise<{ lastRun: RunResponse | null; going: boolean }>;

/** A connection's last sync (no flow) or a flow's last run: read one by one, or from what a list read at once. */
type LastRunOf = (connectionId: string, flow?: OutboundFlowName) => Promise<RunResponse | null>;

function cursorMap(cursors: CursorRow[]): Record<string, CursorResponse> {
  const out: Record<string, CursorResponse> = {};
  for (const cursor of cursors) out[cursor.stream] = { value: cursor.value, set_at: cursor.set_at };
  return out;
}
