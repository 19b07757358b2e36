/**
 * BullMQ's calls wait for a queue's first connection to Redis without end (once connected, a drop fails them at once:
 * no offline queue). A daemon started while Redis is away must still answer its admin API, webhooks and /metrics,
 * so every call first waits for that first connection at most `ms`, then fails naming Redis.
 */
export async function queueReady(queue: { waitUntilReady(): Promise<unknown> }, ms = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no connection to Redis (cluster.redis) in ${ms / 1000} s`)), ms);
  });
  try {
    await Promise.race([queue.waitUntilReady(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
