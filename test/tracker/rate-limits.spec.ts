import { TrackerClient } from '../../src/tracker';
import { operationLimitFor } from '../../src/tracker/http/operation-limits';
import { busiestWindow, busyEventLoop } from '../support/arrival-windows';
import { ScriptedServer } from './scripted-server';

describe('client-side rate limits', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server.close());

  it('spaces calls evenly within the project budget (5 per second): never 6 arrivals within a second', async () => {
    server.reset();
    const client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1', rateLimit: { per_second: 5, per_hour: 1000 } });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => client.managers.list()));
    const elapsed = Date.now() - started;
    await client.close();
    expect(server.requests).toHaveLength(6);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(3000);
    // what the service counts: no more than 5 arrivals in any second, where they arrive (the limiter keeps a
    // margin for a request that leaves late on a busy machine while the next goes on time)
    const at = server.requests.map((r) => r.at);
    expect(at[5] - at[0]).toBeGreaterThanOrEqual(1000);
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
  });

  it('holds the sliding second on a loaded machine (timers late, requests leaving late)', async () => {
    server.reset();
    const client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1', rateLimit: { per_second: 5, per_hour: 1000 } });
    const stopLoad = busyEventLoop();
    try {
      await Promise.all(Array.from({ length: 16 }, () => client.managers.list()));
    } finally {
      stopLoad();
      await client.close();
    }
    expect(busiestWindow(server.requests.map((r) => r.at), 1000)).toBeLessThanOrEqual(5);
  }, 15_000);

  it('never sends more than the hourly budget', async () => {
    server.reset();
    const client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1', rateLimit: { per_second: 1000, per_hour: 3 } });
    const calls = Array.from({ length: 5 }, () => client.channels.list().then(() => 'sent', () => 'dropped'));
    await new Promise((r) => setTimeout(r, 300));
    expect(server.requests).toHaveLength(3);
    await client.close();
    expect(await Promise.all(calls)).toEqual(['sent', 'sent', 'sent', 'dropped', 'dropped']);
  });

  it("adds no limiter at all with rate_limit 'off'", async () => {
    server.reset();
    const client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1', rateLimit: 'off' });
    const started = Date.now();
    await Promise.all(Array.from({ length: 20 }, () => client.visits.list({ limit: 10 })));
    await client.close();
    expect(Date.now() - started).toBeLessThan(900);
    expect(server.requests).toHaveLength(20);
  });

  it('applies the Limits table: order list tiers and the visit list', () => {
    expect(operationLimitFor('ordersList', { limit: 5000 })).toEqual({ key: 'orders.list', perMinute: 20 });
    expect(operationLimitFor('ordersList', { extend: ['visit'], limit: 2000 })).toMatchObject({ perMinute: 1 });
    expect(operationLimitFor('ordersList', { extend: ['visit'], limit: 1000 })).toMatchObject({ perMinute: 1 });
    expect(operationLimitFor('ordersList', { extend: ['visit'], limit: 500 })).toMatchObject({ perMinute: 5 });
    expect(operationLimitFor('ordersList', { extend: ['visit'], limit: 100 })).toMatchObject({ perMinute: 5 });
    expect(operationLimitFor('ordersList', { extend: ['visit'], limit: 50 })).toMatchObject({ perMinute: 10 });
    expect(operationLimitFor('ordersList', { extend: ['visit'] })).toMatchObject({ perMinute: 1 });
    expect(operationLimitFor('visitsList', {})).toEqual({ key: 'visits.list', perSecond: 1, perMinute: 15 });
    expect(operationLimitFor('managersList', {})).toBeNull();
  });

  it('spaces order list calls by its per-operation limit on top of the budget', async () => {
    server.reset();
    const client = new TrackerClient({ baseUrl: server.url, apiKey: 'k', project: '1' });
    await client.orders.list({ limit: 10 });
    const second = client.orders.list({ limit: 10 });
    await new Promise((r) => setTimeout(r, 500));
    // 20 per minute: the second call waits ~3 s, so it has not been sent yet.
    expect(server.requests).toHaveLength(1);
    await client.close();
    await second.catch(() => undefined);
  });
});
