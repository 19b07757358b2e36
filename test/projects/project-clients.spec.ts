/**
 * ProjectClients: one tracker client and one request budget per project, made on first use. Each client sends its
 * project's number (one key may own many projects), a block on the embedded sandbox goes to the sandbox, and one
 * project's 429 leaves the other projects' budgets as they were. Real parts: a loopback service, an SQLite store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { budgetScope } from '../../src/budget/shared-request-budget';
import { projectTarget, TrackerSyncConfig, validateConfig } from '../../src/config';
import { clientOptionsOf, ProjectClients, UnknownProjectError } from '../../src/projects/project-clients';
import { createStoreDataSource } from '../../src/store/store-data-source';
import { BudgetLimiters } from '../../src/budget/budget-limiters';
import { budgetStoreOf } from '../../src/store/budget-store';

interface Seen {
  key: string | undefined;
  project: string | null;
}

/** A service that answers every call and remembers each call's key and project. */
async function recordingService(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ key: req.headers['api-key'] as string | undefined, project: url.searchParams.get('project') });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [], status: 'success' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, seen };
}

function config(document: Record<string, unknown>): TrackerSyncConfig {
  return validateConfig({ connections: [], ...document }, { env: {} });
}

const SANDBOX = { baseUrl: 'http://127.0.0.1:3000/sandbox/api/v1', apiKey: 'sandbox-key-1234', project: '1', rateLimit: 'off' as const, retries: 0 };

describe('ProjectClients', () => {
  it('on the embedded sandbox, a block without base_url is a project of the sandbox (its key, the block\'s number)', () => {
    const loaded = config({ sandbox: { projects: 2 }, projects: { acme: { project: '2' }, far: { project: '9', base_url: 'https://far.example.test/v1', api_key: 'far-key-5678' } } });
    expect(clientOptionsOf(projectTarget(loaded, 'default')!, SANDBOX)).toBe(SANDBOX);
    expect(clientOptionsOf(projectTarget(loaded, 'acme')!, SANDBOX)).toMatchObject({ baseUrl: SANDBOX.baseUrl, apiKey: SANDBOX.apiKey, project: '2' });
    expect(clientOptionsOf(projectTarget(loaded, 'far')!, SANDBOX)).toMatchObject({ baseUrl: 'https://far.example.test/v1', apiKey: 'far-key-5678', project: '9' });
  });

  describe('against a service', () => {
    let service: Awaited<ReturnType<typeof recordingService>>;
    let dir: string;
    let ds: DataSource;
    let clients: ProjectClients | undefined;

    beforeEach(async () => {
      service = await recordingService();
      dir = mkdtempSync(join(tmpdir(), 'project-clients-'));
      ds = await createStoreDataSource({ dataDir: dir });
    });
    afterEach(async () => {
      await clients?.close();
      clients = undefined;
      await limiters?.close();
      limiters = undefined;
      await ds.destroy();
      await new Promise((resolve) => service.server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    });

    let limiters: BudgetLimiters | undefined;
    async function make(document: Record<string, unknown>): Promise<ProjectClients> {
      const loaded = config(document);
      const t = loaded.tracker;
      clients = new ProjectClients({
        config: loaded,
        defaults: { baseUrl: t.base_url!, apiKey: t.api_key!, project: t.project, rateLimit: t.rate_limit, retries: 0, timeoutMs: 5000 },
        limiters: (limiters = await BudgetLimiters.store(budgetStoreOf(ds))),
      });
      return clients;
    }

    it('sends each project its own number with the one key that owns them all', async () => {
      const made = await make({
        tracker: { base_url: service.url, api_key: 'agency-key-0001', project: '100' },
        projects: { acme: { project: '12345' }, beta: { project: '777', api_key: 'agency-key-0001' } },
        connections: [{ id: 'acme-sheet', connector: 'spreadsheet', project: 'acme' }, { id: 'plain', connector: 'spreadsheet' }],
      });
      await made.client('acme').projects.trackingCodes();
      await made.client('beta').projects.trackingCodes();
      await made.forConnection('acme-sheet').projects.trackingCodes();
      await made.forConnection('plain').projects.trackingCodes();
      expect(service.seen).toEqual([
        { key: 'agency-key-0001', project: '12345' },
        { key: 'agency-key-0001', project: '777' },
        { key: 'agency-key-0001', project: '12345' },
        { key: 'agency-key-0001', project: '100' },
      ]);
      expect(made.client('acme')).toBe(made.forConnection('acme-sheet'));
      expect(() => made.client('acne')).toThrow(UnknownProjectError);
    });

    it('names the project\'s block when the service refuses its key or its number', async () => {
      const refusing = createServer((req, res) => {
        const key = req.headers['api-key'];
        res.writeHead(key === 'good-key-1234' ? 403 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', error: key === 'good-key-1234' ? 'access_denied' : 'authentication_failed', description: 'no' }));
      });
      await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/api/v1`;
      try {
        const made = await make({
          tracker: { base_url: service.url, api_key: 'agency-key-0001', project: '100' },
          projects: { acme: { project: '12345', base_url: url, api_key: 'stale-key-9876' }, beta: { project: '777', base_url: url, api_key: 'good-key-1234' } },
        });
        await expect(made.client('acme').orders.listStatuses()).rejects.toThrow(/^the service refused the Api-key \(projects\.acme\.api_key, default tracker\.api_key\)/);
        await expect(made.client('beta').orders.listStatuses()).rejects.toThrow(/^the service refused project 777 for this Api-key \(projects\.beta\.project\)/);
      } finally {
        await new Promise((resolve) => refusing.close(resolve));
      }
    });

    it('makes a project\'s client and budget on first use, each budget under its own project\'s scope', async () => {
      const names = Array.from({ length: 100 }, (_, i) => `client-${i}`);
      const made = await make({
        tracker: { base_url: service.url, api_key: 'agency-key-0001', project: '100' },
        projects: Object.fromEntries(names.map((name, i) => [name, { project: String(1000 + i) }])),
      });
      expect(made.names()).toEqual(['default', ...names]);
      expect(made.budgets()).toEqual([]);
      expect(made.budget('client-7')!.scope).toBe(budgetScope(service.url, '1007'));
      expect(made.budget('default')!.scope).toBe(budgetScope(service.url, '100'));
      expect(made.budgets().map((b) => b.project)).toEqual(['client-7', 'default']);
    });

    it('a 429 of one project makes only that project wait: the others draw at once', async () => {
      const made = await make({
        tracker: { base_url: service.url, api_key: 'agency-key-0001', project: '100', rate_limit: { per_second: 8, per_hour: 4000 } },
        projects: { storm: { project: '2' }, calm: { project: '3' } },
      });
      const signal = new AbortController().signal;
      // both budgets' rows exist and their first send is spent, as after some traffic
      await Promise.all([made.budget('storm')!.take(null, signal), made.budget('calm')!.take(null, signal)]);
      await made.budget('storm')!.penalize(1500);
      const timed = async (project: string) => {
        const start = Date.now();
        await made.budget(project)!.take(null, signal);
        return Date.now() - start;
      };
      const [storm, calm] = await Promise.all([timed('storm'), timed('calm')]);
      expect(storm).toBeGreaterThanOrEqual(1300);
      expect(calm).toBeLessThan(600);
    });
  });
});
