/** Token of HeartbeatOptions (optional; tests shorten the timings). */
export const HEARTBEAT_OPTIONS = 'HEARTBEAT_OPTIONS';

export interface HeartbeatOptions {
  /** how often the daemon writes its row */
  intervalMs?: number;
  /** a daemon is listed while its heartbeat is younger than this */
  recentMs?: number;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 5_000;
/** six missed heartbeats: the same horizon after which the engine takes over a silent daemon's leases */
export const DEFAULT_RECENT_MS = 30_000;
