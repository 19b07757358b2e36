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
}

export const SCHEDULE_CONTROL = Symbol('ScheduleControl');
