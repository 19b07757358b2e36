/**
 * Cluster mode, one daemon in this process (support/queue-daemon.ts) on PostgreSQL and Redis:
 * - a run that failed for a reason no retry lifts soon (the CRM's daily quota spent, its credentials refused) fails
 *   its job for good: one attempt, one request to the CRM; any other failure is still tried again after the job's
 *   backoff (queue-one-daemon.spec.ts);
 * - a trigger sent the moment a run reads ended is accepted: the job that still holds the connection while it is
 *   closed (its summary reported, BullMQ moving it) is waited for, not answered "already running".
 */
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import connector from '../../connectors/generic-crm';
import { RunInProgressError } from '../../src/engine';
import { ConnectionConfig, SyncOptionsConfig } from '../../src/config/config.schema';
import { CrmServer, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import * as pipedrive from '../fixtures/crm/pipedrive';
import { EngineHarness, memoryRegistry } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';
import { describeCluster, suiteRedis } from '../support/redis-server';
import { QueueDaemon } from './support/queue-daemon';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeCluster('cluster mode: failures no retry lifts; a trigger right after a run ends', () => {
  let h: EngineHarness;
  let redis: { url: string; dispose: () => Promise<void> };
  let crm: CrmServer;
  let daemon: QueueDaemon;

  beforeAll(() => Logger.overrideLogger(['error']));

  beforeEach(async () => {
    redis = await suiteRedis(5); // emptied
    h = await new EngineHarness({ driver: 'postgres', batchSize: 10, concurrency: 1 }).start();
    h.config.cluster.redis = redis.url;
    // a retried job waits 30 s (delayed): the test sees that at once; locks of 10 s hold under a loaded machine
    h.config.cluster.stalled_after = '30s';
    crm = await startCrmServer(pipedrive.createCrm({ dailyLimit: 0 }).handler); // every request past the token: 429, daily budget spent
    const pipedriveConnection = (id: string, token: string) => {
      const connection = Object.assign(new ConnectionConfig(), { id, connector: 'generic-crm', settings: { ...pipedrive.settings(crm.url), token } });
      connection.sync = new SyncOptionsConfig();
      return connection;
    };
    h.config.connections.push(pipedriveConnection('quota', pipedrive.TOKEN), pipedriveConnection('refused', 'revoked-token-777'));
    const registry = memoryRegistry();
    registry.register(connector);
    daemon = new QueueDaemon(h, registry).startWorker();
  });

  afterEach(async () => {
    await daemon?.stop();
    await h?.stop();
    await crm?.close();
    await redis?.dispose();
  });

  /** The connection's `run` job once it is no longer active (failed for good, or waiting for its retry). */
  async function settledJob(connectionId: string): Promise<Job> {
    for (const until = Date.now() + 5_000; Date.now() < until; await sleep(20)) {
      const jobs = await daemon.queue.queue.getJobs(['active', 'delayed', 'waiting', 'failed', 'completed']);
      const job = jobs.find((j) => j.data.connectionId === connectionId);
      if (job && (await job.getState()) !== 'active') return (await daemon.queue.queue.getJob(job.id!))!;
    }
    throw new Error(`the job of ${connectionId} did not settle`);
  }

  it('a spent daily quota or refused credentials: the job fails at once, attempted once (one request each)', async () => {
    for (const [id, said] of [['quota', /the CRM's daily request limit is spent/], ['refused', /the CRM refused the connection's credentials/]] as const) {
      const outcome = await daemon.triggers.trigger({ connectionId: id, trigger: 'admin', request: { kind: 'sync', mode: 'incremental' } });
      if (outcome.status !== 'started') throw new Error(`the run of ${id} did not start: ${outcome.status}`);
      expect(await outcome.done).toMatchObject({ status: 'failed', error: expect.stringMatching(said), lasting: true });
      const job = await settledJob(id);
      expect({ id, state: await job.getState(), attempts: job.attemptsMade }).toEqual({ id, state: 'failed', attempts: 1 });
    }
    expect(crm.requests).toHaveLength(2);
    const runs = await h.query(`SELECT connection_id, status FROM run ORDER BY id`);
    expect(runs).toEqual([{ connection_id: 'quota', status: 'failed' }, { connection_id: 'refused', status: 'failed' }]);
  });

  it('a trigger sent the moment the run before reads ended is accepted, run after run', async () => {
    h.source.deals = makeDeals(20);
    const sync = () => daemon.triggers.trigger({ connectionId: h.connectionId, trigger: 'admin', request: { kind: 'sync', mode: 'full' } });
    let outcome = await sync();
    for (let round = 1; round <= 4; round++) {
      if (outcome.status !== 'started') throw new Error(`round ${round}: ${outcome.status}`);
      const { runId } = outcome;
      // a client polling the run's row as fast as it answers, then asking for the next run at once
      while ((await h.query(`SELECT status FROM run WHERE id = ?`, [runId]))[0].status === 'running');
      outcome = await sync().catch((error: unknown) => {
        if (error instanceof RunInProgressError) throw new Error(`round ${round}: refused, ${error.message}`);
        throw error;
      });
    }
    if (outcome.status === 'started') expect(await outcome.done).toMatchObject({ status: 'succeeded' });
  });
});
