import { Injectable } from '@nestjs/common';
import { HeartbeatService } from '../../cluster/heartbeat.service';
import type { DaemonRow } from '../../store/records';
import { DaemonStore } from '../../store/repositories/daemon.store';
import { ClusterResponse, DaemonResponse } from './cluster.response';

/** The daemons sharing the store, from their heartbeat rows. */
@Injectable()
export class ClusterStatusService {
  constructor(
    private readonly daemons: DaemonStore,
    private readonly heartbeat: HeartbeatService,
  ) {}

  async status(): Promise<ClusterResponse> {
    const now = Date.now();
    const rows = await this.daemons.recent(new Date(now - this.heartbeat.recentMs).toISOString());
    return {
      self: this.heartbeat.daemonId,
      recent_seconds: Math.round(this.heartbeat.recentMs / 1000),
      daemons: rows.map((row) => this.toResponse(row, now)),
    };
  }

  private toResponse(row: DaemonRow, now: number): DaemonResponse {
    return {
      id: row.id,
      host: row.host,
      pid: row.pid,
      started_at: row.started_at,
      heartbeat_at: row.heartbeat_at,
      heartbeat_age_seconds: Math.max(0, Math.round((now - Date.parse(row.heartbeat_at)) / 100) / 10),
      self: row.id === this.heartbeat.daemonId,
      running: (row.running ?? []).map((r) => ({ connection_id: r.connection_id, run_id: r.run_id ?? null })),
    };
  }
}
