import type { OnApplicationShutdown } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import { redisConnectionOptions } from '../redis/redis-connection';
import { queueReady } from './queue-ready';
import { queueWorkers } from './queue-workers';

/** The runs queue of cluster mode (created and worked by the queue side, src/cluster's run queue). */
export const RUNS_QUEUE = 'runs';
export const QUEUE_PREFIX = 'tracker-sync';

export type QueueCounts = Record<'waiting' | 'active' | 'delayed' | 'failed', number>;

/** A daemon as BullMQ sees it: a worker connection of the runs queue, and the jobs it holds. */
export interface QueueWorker {
  /** the worker's name (the daemon's, as the queue side names its worker) */
  name: string;
  addr: string;
  age_seconds: number;
  idle_seconds: number;
  jobs: { id: string; name: string; connection_id: string | null; started_at: string | null }[];
}

/**
 * What this daemon shows of the runs queue (cluster mode): counts for /metrics, the workers and their jobs for
 * GET /api/cluster, the queue for the dashboard; the stalled jobs BullMQ reports, as they happen. It only reads:
 * its connection fails fast while Redis is away (a scrape must not hang), the workers' connections wait instead.
 */
export class RunsQueueView implements OnApplicationShutdown {
  readonly queue: Queue;
  private readonly events: QueueEvents;
  private readonly db: number;

  constructor(redisUrl: string, onStalled: () => void) {
    this.db = redisConnectionOptions(redisUrl).db ?? 0;
    this.queue = new Queue(RUNS_QUEUE, { prefix: QUEUE_PREFIX, connection: { ...redisConnectionOptions(redisUrl), maxRetriesPerRequest: 1, enableOfflineQueue: false } });
    this.events = new QueueEvents(RUNS_QUEUE, { prefix: QUEUE_PREFIX, connection: redisConnectionOptions(redisUrl) });
    this.events.on('stalled', () => onStalled());
    // a Redis outage is reported by /health; here it would only be an unhandled 'error' event
    this.queue.on('error', () => undefined);
    this.events.on('error', () => undefined);
  }

  async counts(): Promise<QueueCounts> {
    await queueReady(this.queue, 1_000); // a scrape must not hang
    const c = await this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
    return { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 };
  }

  async workers(): Promise<QueueWorker[]> {
    await queueReady(this.queue);
    const [clients, active] = await Promise.all([queueWorkers(this.queue, this.db), this.queue.getActive(0, 999)]);
    const byName = new Map<string, QueueWorker>();
    for (const client of clients) {
      const name = workerName(client.rawname ?? '');
      if (byName.has(name)) continue; // a worker has more than one connection
      byName.set(name, { name, addr: client.addr ?? '', age_seconds: Number(client.age ?? 0), idle_seconds: Number(client.idle ?? 0), jobs: [] });
    }
    for (const job of active) {
      const holder = job.processedBy ?? '';
      const worker = byName.get(holder);
      const entry = {
        id: String(job.id),
        name: job.name,
        connection_id: typeof job.data?.connectionId === 'string' ? job.data.connectionId : typeof job.data?.connection === 'string' ? job.data.connection : null,
        started_at: job.processedOn ? new Date(job.processedOn).toISOString() : null,
      };
      if (worker) worker.jobs.push(entry);
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close()]);
  }
}

/** BullMQ names a worker's connections `<prefix>:<queue, base64>:w:<worker name>`. */
function workerName(rawname: string): string {
  const at = rawname.indexOf(':w:');
  return at >= 0 ? rawname.slice(at + 3) : rawname;
}
