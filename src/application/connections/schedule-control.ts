import type { OutboundFlowName } from '../../runs/outbound-flows';
import type { ScheduledFlow, TickCounts } from '../../runs/schedule-ticks';

/**
 * What the application layer asks of the scheduler: its job for a connection follows the stored flags again
 * (after pause/resume), and when its next run fires. The scheduler implements it (`SchedulerService`) and
 * provides it under `SCHEDULE_CONTROL`; the application does not import the scheduler, which starts its runs
 * through the application's trigger path, so the two folders form no cycle (issue 40).
 */
export interface ScheduleControl {
  /** re-reads one connection and adds, replaces or removes its job */
  refresh(connectionId: string): Promise<void>;
  /** after a config reload: the jobs of these connections (added, changed, removed) follow the config now held */
  rebuild(connectionIds: string[]): Promise<void>;
  /** when the connection's next scheduled run fires; null when paused or unscheduled */
  nextRun(connectionId: string): Promise<Date | null>;
  /** when an outbound flow's own schedule next fires; null without one, or paused */
  nextFlowRun(connectionId: string, flow: OutboundFlowName, schedule: string | undefined, paused: boolean): Date | null;
  /** a flow's ticks since the daemon started (null: none counted) */
  ticksOf(connectionId: string, flow: ScheduledFlow): TickCounts | null;
  /** why no scheduled run fires now (no daemon is running; the cluster's Redis is unreachable), or null while they fire */
  halted(): Promise<ScheduleHalt | null>;
}

/** Why the schedules do not fire now: a next run computed from the cron alone would be a promise nobody keeps. */
export interface ScheduleHalt {
  /** `no_daemon`: no daemon of the store is up (the CLI runs no timers); `redis_unreachable`: cluster mode's job schedulers live in Redis */
  reason: 'no_daemon' | 'redis_unreachable';
  /** one line, e.g. "no daemon is running (last heartbeat 5m ago): scheduled runs are not happening" */
  message: string;
  /** no_daemon: the newest heartbeat any daemon wrote to the store (ISO-8601 UTC), null when none is left */
  last_heartbeat_at: string | null;
}

export const SCHEDULE_CONTROL = Symbol('ScheduleControl');
