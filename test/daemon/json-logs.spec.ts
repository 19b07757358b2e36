/**
 * LOG_FORMAT=json: one JSON object per line; every line of a run carries its connection and run id;
 * no secret (admin token, service api key, sandbox key, a token in connector settings) in any line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { api, RunningDaemon, startDaemon, tempDir, waitForFinishedRun } from './daemon-harness';

const SECRETS = {
  ADMIN_TOKEN: 'admin-token-7f3a9c2e51d84b06',
  TRACKER_API_KEY: 'service-key-0d1e2f3a4b5c6d7e',
  CRM_TOKEN: 'bitrix-webhook-code-9a8b7c6d5e',
};

/** A CRM that refuses the webhook code: the run fails, and its error must not show the code. */
function refusingCrm(): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'expired_token', error_description: 'The access token provided has expired.' }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The default config plus a Bitrix24 connection whose token comes from the environment. */
function configWithCrm(dir: string, crmPort: number): string {
  const config = parse(readFileSync('config/tracker-sync.yaml', 'utf8'));
  config.connections.push({
    id: 'crm-secret',
    connector: 'generic-crm',
    settings: { preset: 'bitrix24', base_url: `http://127.0.0.1:${crmPort}/rest/1`, token: '${CRM_TOKEN}', retry: { max_attempts: 1 } },
  });
  const file = join(dir, 'tracker-sync.yaml');
  writeFileSync(file, stringify(config));
  return file;
}

interface LogLine {
  level: number;
  msg: string;
  connection?: string;
  run?: number;
  [key: string]: unknown;
}

describe('JSON logs', () => {
  const dataDir = tempDir('json-logs');
  let crm: Server;
  let running: RunningDaemon;
  let lines: string[];
  let sandboxKey: string;

  beforeAll(async () => {
    crm = await refusingCrm();
    const configFile = configWithCrm(dataDir.path, (crm.address() as AddressInfo).port);
    running = await startDaemon({ DATA_DIR: dataDir.path, LOG_FORMAT: 'json', ...SECRETS }, configFile);
    const demo = await waitForFinishedRun(running.url, SECRETS.ADMIN_TOKEN, 'demo-sheet', 1);
    expect(demo.status).toBe('succeeded');
    const started = await api<{ run_id: number }>(running.url, SECRETS.ADMIN_TOKEN, '/api/connections/crm-secret/sync', { method: 'POST' });
    expect(started.status).toBe(202);
    const failed = await waitForFinishedRun(running.url, SECRETS.ADMIN_TOKEN, 'crm-secret', started.body.run_id, 30_000);
    expect(failed.status).toBe('failed');
    await api(running.url, SECRETS.ADMIN_TOKEN, '/api/connections/crm-secret/check', { method: 'POST' });
    sandboxKey = readFileSync(join(dataDir.path, 'sandbox-api-key'), 'utf8').trim();
    require("fs").writeFileSync("/tmp/json-out.txt", running.output.text());
    lines = running.output.text().split('\n').filter((l) => l.trim() !== '');
  }, 90_000);

  afterAll(async () => {
    await running?.stop();
    await new Promise((resolve) => crm?.close(resolve));
    dataDir.remove();
  });

  it('writes one JSON object per line and no token notice (ADMIN_TOKEN is set)', () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(running.output.text()).not.toContain('Admin API token');
  });

  it('gives every line of a run its connection and run id', () => {
    const parsed = lines.map((l) => JSON.parse(l) as LogLine);
    const ofDemoRun = parsed.filter((l) => /\brun 1\b/.test(l.msg) && l.msg.includes('demo-sheet'));
    const ofCrmRun = parsed.filter((l) => /\brun 2\b/.test(l.msg) && l.msg.includes('crm-secret'));
    expect(ofDemoRun.length).toBeGreaterThanOrEqual(5); // start, a line per stream, the summary
    expect(ofCrmRun.length).toBeGreaterThanOrEqual(2);
    for (const line of ofDemoRun) expect(line).toMatchObject({ connection: 'demo-sheet', run: 1 });
    for (const line of ofCrmRun) expect(line).toMatchObject({ connection: 'crm-secret', run: 2 });
    const summary = ofDemoRun.find((l) => l.msg.includes('run 1 demo-sheet succeeded:'));
    expect(summary?.msg).toContain('skipped_by_waiting_visit_info');
    expect(ofCrmRun.some((l) => l.msg.includes('run 2 crm-secret failed:') && l.level === 50)).toBe(true);
  });

  it('logs no secret: admin token, service api key, sandbox key, a token in settings', () => {
    const all = lines.join('\n');
    for (const [name, value] of Object.entries({ ...SECRETS, sandboxKey })) {
      expect({ name, found: all.includes(value) }).toEqual({ name, found: false });
    }
  });
});
