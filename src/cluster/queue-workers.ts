import type { Queue } from 'bullmq';

/**
 * The workers of a queue as BullMQ lists them (`getWorkers()`: Redis's CLIENT LIST, by connection name), kept to
 * those on `db`. CLIENT LIST shows the clients of every database of the server, so a second installation on the
 * same Redis (another `/<db>` in its cluster.redis, the same queue names) would be counted as this one's daemons.
 */
export async function queueWorkers(queue: Queue, db: number): Promise<Record<string, string>[]> {
  const clients = await queue.getWorkers();
  return clients.filter((client) => client.db === undefined || Number(client.db) === db);
}
