import type { Worker } from 'bullmq';

/** A run stops once its job's lock went unrenewed this share of the lock's time (BullMQ renews every 1/4 to 1/2). */
const QUIET_SHARE = 0.75;

/**
 * Cluster mode: a run goes on only while this daemon surely holds its job's lock. Another daemon takes a job over
 * once its lock has lapsed in Redis; a daemon cut off from Redis (a partition: its commands wait for the connection)
 * renews nothing and hears nothing, and its run would go on beside the one that took it over (leads created twice).
 * So a run stops, at its next checkpoint, when Redis refuses its lock's renewal (the lock is gone) or when no
 * renewal came back for 3/4 of the lock's time: before the lock can lapse, so before any takeover.
 */
export class JobLockWatch {
  /** job id → when its lock was last renewed (this clock), and what stops its run */
  private readonly held = new Map<string, { renewedAt: number; lost: (why: string) => void }>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly lockMs: number) {}

  /** Follows the renewals of `worker`'s locks (its `lockDuration` is this watch's `lockMs`). */
  watch(worker: Worker): void {
    worker.on('locksRenewed', ({ jobIds }) => {
      const now = Date.now();
      for (const id of jobIds) {
        const job = this.held.get(id);
        if (job) job.renewedAt = now;
      }
    });
    worker.on('lockRenewalFailed', (jobIds) => {
      for (const id of jobIds) this.lose(id, 'Redis refused to renew its lock (the lock is gone)');
    });
    this.timer ??= setInterval(() => this.check(), Math.max(50, Math.round(this.lockMs / 20)));
    this.timer.unref();
  }

  /** From now on (the job's lock was just taken or renewed), `lost` is called once if the lock may lapse. Returns the release. */
  hold(jobId: string, lost: (why: string) => void): () => void {
    this.held.set(jobId, { renewedAt: Date.now(), lost });
    return () => this.held.delete(jobId);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private check(): void {
    const now = Date.now();
    for (const [id, job] of this.held) {
      const quietMs = now - job.renewedAt;
      if (quietMs > this.lockMs * QUIET_SHARE) this.lose(id, `no renewal of its lock came back for ${(quietMs / 1000).toFixed(1)} s (Redis out of reach)`);
    }
  }

  private lose(jobId: string, why: string): void {
    const job = this.held.get(jobId);
    if (!job) return;
    this.held.delete(jobId);
    job.lost(why);
  }
}
