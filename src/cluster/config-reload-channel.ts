import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';

/** Where a reload is asked of every daemon, and how many have been asked so far (the generation). */
const CHANNEL = 'tracker-sync:config-reload';
const GENERATION = 'tracker-sync:config-reload:generation';
/** the reload was done here already: asking the others must not hold its answer while Redis is away */
const ASK_TIMEOUT_MS = 2_000;

/** How many other daemons were asked, or why none could be. */
export interface OthersAsked {
  other_daemons_asked: number;
  other_daemons_error?: string;
}

/**
 * Cluster mode: a reload asked of one daemon (POST /api/config/reload, SIGHUP) is asked of every other daemon
 * through Redis pub/sub, and each re-reads its own config file. Otherwise a scoped token taken out of every file
 * would keep working on every daemon but the one reloaded. A message is not kept for a daemon that was cut off from
 * Redis when it went out, so each ask also counts up a generation in Redis: a daemon whose subscription comes back
 * finds a generation it has not seen and reloads then.
 */
export class ConfigReloadChannel implements OnApplicationShutdown {
  private readonly logger = new Logger('Config');
  private subscriber: Redis | null = null;
  /** our subscription is live: PUBLISH counts it among the receivers */
  private subscribed = false;
  /** the last generation this daemon reloaded at (or found at its start); null: not known yet */
  private seen: number | null = null;

  constructor(
    private readonly redis: Redis,
    /** this daemon's holder id, named in the others' log lines */
    private readonly daemonId: string,
  ) {}

  /** Takes the others' asks from now on; `reload` is called with who asked. Never waits for Redis. */
  listen(reload: (why: string) => void): void {
    const subscriber = this.redis.duplicate({ autoResubscribe: false, connectionName: `tracker-sync:config-reload:${this.daemonId}` });
    this.subscriber = subscriber;
    let lost = false;
    // the cluster's client (ClusterRedis) reports Redis's outages: one line each, not one per reconnect attempt. A
    // subscription that failed, even before its first connection (Redis away at start), looks for a missed reload.
    subscriber.on('error', () => (lost = true));
    subscriber.on('close', () => {
      lost ||= this.subscribed;
      this.subscribed = false;
    });
    subscriber.on('ready', () => void this.subscribe(subscriber, lost, reload).then(() => (lost = false), () => undefined));
    subscriber.on('message', (_channel: string, text: string) => {
      const ask = parseAsk(text);
      if (!ask || ask.from === this.daemonId) return;
      this.seen = Math.max(this.seen ?? 0, ask.generation);
      reload(`asked by daemon ${ask.from}`);
    });
  }

  /** After this daemon reloaded: every other daemon is asked to. */
  async askOthers(): Promise<OthersAsked> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ASK_TIMEOUT_MS} ms`)), ASK_TIMEOUT_MS)));
    try {
      return await Promise.race([this.publish(), timeout]);
    } catch (error) {
      const problem = `the cluster's Redis (cluster.redis) did not take the reload (${(error as Error).message}): the other daemons were not asked; reload each (SIGHUP or POST /api/config/reload)`;
      this.logger.warn(problem);
      return { other_daemons_asked: 0, other_daemons_error: problem };
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  private async publish(): Promise<OthersAsked> {
    const generation = await this.redis.incr(GENERATION);
    this.seen = generation;
    const receivers = await this.redis.publish(CHANNEL, JSON.stringify({ from: this.daemonId, generation }));
    const asked = Math.max(0, receivers - (this.subscribed ? 1 : 0));
    this.logger.log(`asked the other daemons of the cluster to reload their config: ${asked} took the message`);
    return { other_daemons_asked: asked };
  }

  /** On every (re)connection: subscribe, and reload when an ask went out while this daemon was not listening. */
  private async subscribe(subscriber: Redis, reconnected: boolean, reload: (why: string) => void): Promise<void> {
    await subscriber.subscribe(CHANNEL);
    this.subscribed = true;
    const generation = Number(await this.redis.get(GENERATION)) || 0;
    const missed = reconnected && generation > (this.seen ?? 0);
    this.seen = Math.max(this.seen ?? 0, generation);
    if (missed) reload('asked of the cluster while this daemon was cut off from its Redis');
  }
}

function parseAsk(text: string): { from: string; generation: number } | null {
  try {
    const ask = JSON.parse(text) as { from?: unknown; generation?: unknown };
    return typeof ask.from === 'string' && typeof ask.generation === 'number' ? { from: ask.from, generation: ask.generation } : null;
  } catch {
    return null;
  }
}
