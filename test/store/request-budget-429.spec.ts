/**
 * A 429 seen by one process shrinks the budget for every process of the store: the client that got it reports it
 * to the shared budget, so another client (its own connection to the same SQLite file, as another daemon or the
 * CLI) waits the Retry-After before its next request and then goes at half the pace, though it never saw a 429.
 * Real parts: a loopback server scripted to answer 429, an SQLite store.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { budgetScope, SharedRequestBudget } from '../../src/budget/shared-request-budget';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { BudgetLimiters } from '../../src/budget/budget-limiters';
import { budgetStoreOf } from '../../src/store/budget-store';
import { TrackerClient, TrackerRequestEvent } from '../../src/tracker';
import { ScriptedServer } from '../tracker/scripted-server';

describe('a 429 shrinks the shared request budget', () => {
  let dir: string;
  let server: ScriptedServer;
  const open: DataSource[] = [];
  const limiters: BudgetLimiters[] = [];
  const clients: TrackerClient[] = [];

  async function clientOf(onRequest?: (e: TrackerRequestEvent) => void): Promise<{ client: TrackerClient; budget: SharedRequestBudget }> {
    const ds = await createStoreDataSource({ dataDir: dir });
    open.push(ds);
    const limits = { per_second: 20, per_hour: 1000 };
    const store = await BudgetLimiters.store(budgetStoreOf(ds));
    limiters.push(store);
    const budget = new SharedRequestBudget(store, budgetScope(server.url, '4242'), limits);
    const client = new TrackerClient({ baseUrl: server.url, apiKey: 'k-429-test', project: '4242', rateLimit: limits, budget, retries: 3, retryBaseMs: 5, onRequest });
    clients.push(client);
    return { client, budget };
  }

  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'budget-429-'));
    server.reset();
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const l of limiters.splice(0)) await l.close();
    for (const ds of open.splice(0)) await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => server.close());

  it("makes the other process wait the Retry-After, then halves the pace of both for a while", async () => {
    server.script({ status: 429, headers: { 'retry-after': '1' }, body: { status: 'error', error: 'request_limit_error' } });
    let throttledAt = 0;
    let other: Promise<unknown> | null = null;
    const b = await clientOf();
    const a = await clientOf((e) => {
      if (e.status !== 429) return;
      throttledAt = server.requests[0].at; // the server's clock (ms since it started)
      // b starts after a's 429 (it has never seen one), once a has reported it: the event comes before the report,
      // and a slot b took in between would be sent (as a request already on its way when a 429 comes)
      other = new Promise((r) => setTimeout(r, 100)).then(() => b.client.managers.list());
    });
    await a.client.managers.list();
    await other;
    const after = server.requests.slice(1).map((r) => r.at);
    expect(after).toHaveLength(2);
    for (const at of after) expect(at - throttledAt).toBeGreaterThanOrEqual(980);

    // the next requests of either process: 100 ms apart instead of 50 (per_second 20, halved)
    const started = Date.now();
    await Promise.all([a, b, a, b, a].map(({ client }) => client.managers.list()));
    const times = server.requests.slice(3).map((r) => r.at).sort((x, y) => x - y);
    expect(times).toHaveLength(5);
    expect(times[4] - times[0]).toBeGreaterThanOrEqual(380);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('without a 429 the pace is the configured one', async () => {
    const a = await clientOf();
    const b = await clientOf();
    await Promise.all([a, b, a, b, a].map(({ client }) => client.managers.list()));
    const times = server.requests.map((r) => r.at).sort((x, y) => x - y);
    expect(times[4] - times[0]).toBeGreaterThanOrEqual(180);
    expect(times[4] - times[0]).toBeLessThan(380);
  });
});
