import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CrmServer, FixtureAnswer, FixtureRequest, startCrmServer } from '../fixtures/crm/crm-fixture-server';
import { removeDir, runCliInProcess, tempDir } from './cli-harness';

/**
 * `write-back <connection> [--dry-run]` against a loopback CRM and the embedded sandbox (demo visits):
 * the dry run lists each deal and the values that would go into which field and writes nothing; the
 * pass writes them and prints its counters; `runs` shows the write-back run's counters.
 */

const now = Date.now();
const deals = [
  { id: 11, title: 'Kitchen', created: new Date(now - 3_600_000).toISOString(), visit: '1000001', src: null as string | null },
  { id: 12, title: 'Walk-in', created: new Date(now - 1_800_000).toISOString(), visit: null, src: null as string | null },
];

function handler(request: FixtureRequest): FixtureAnswer {
  if (request.method === 'GET' && request.path === '/deals') return { body: { items: deals } };
  if (request.method === 'PUT' && request.path.startsWith('/deals/')) {
    const deal = deals.find((d) => `/deals/${d.id}` === request.path);
    if (!deal) return { status: 404, body: { error: 'not found' } };
    deal.src = request.body.source;
    return { body: { ok: true } };
  }
  return { status: 404, body: { error: `no route ${request.method} ${request.path}` } };
}

describe('cli write-back', () => {
  let crm: CrmServer;
  let dir: string;
  let config: string;
  const cli = (...args: string[]) => runCliInProcess([...args, '--config', config]);
  const updates = () => crm.requests.filter((r) => r.method === 'PUT');

  beforeAll(async () => {
    crm = await startCrmServer(handler);
    dir = tempDir();
    config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      stringify({
        data_dir: join(dir, 'data'),
        tracker: { rate_limit: 'off', retries: 1, timeout_ms: 5000 },
        sandbox: { seed: 'demo', budget: 'off' },
        connections: [{
          id: 'crm',
          connector: 'generic-crm',
          settings: {
            base_url: crm.url,
            auth: { type: 'none' },
            streams: { deals: { request: { path: '/deals' }, records: 'items', mapping: { id: 'id', title: 'title', created_at: 'created', visit_id: 'visit' } } },
            write_back: {
              fields: { channel: 'source' },
              schedule: '0 3 * * *', // its own schedule: the sync is not followed by a write-back
              request: { method: 'PUT', path: '/deals/{{id}}', body: '{{values}}' },
            },
          },
        }],
      }),
    );
  });

  afterAll(async () => {
    await crm?.close();
    removeDir(dir);
  });

  it('a dry run shows each deal and the values that would be written, and writes nothing', async () => {
    const sync = await cli('sync', 'crm');
    expect(sync.code).toBe(0);
    expect(sync.stdout).not.toContain('write-back');
    const dry = await cli('write-back', 'crm', '--dry-run');
    expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = dry.stdout.trim().split('\n');
    expect(lines[0]).toBe('connection crm: write-back dry run (nothing is written)');
    expect(lines[1]).toBe('deal 11');
    expect(lines[2]).toMatch(/^ {2}channel → source: \S.+ \/ .+$/); // the demo visit's channel levels
    expect(lines.at(-1)).toBe('would write 1 deals · attributed 1 · unchanged 0');
    expect(dry.stdout).not.toContain('deal 12');
    // write-back is `flow write_back`: the same answer
    const generic = await cli('flow', 'write_back', 'crm', '--dry-run');
    expect({ code: generic.code, stdout: generic.stdout, stderr: generic.stderr }).toEqual({ code: 0, stdout: dry.stdout, stderr: '' });
    expect(updates()).toHaveLength(0);
  }, 30_000);

  it('a pass writes the values and prints its counters; runs shows them; a second pass writes nothing', async () => {
    const dryValue = (await cli('write-back', 'crm', '--dry-run')).stdout.split('\n')[2].replace('  channel → source: ', '');
    const pass = await cli('write-back', 'crm');
    // stderr is not a terminal: the pass's progress once, as a sync's stream, and nothing else
    expect(pass.code).toBe(0);
    expect(pass.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^\S+Z run \d+ write_back: 100% \(1 of 1 pages\) · attributed 1 · written 1 · unchanged 0 · rejected 0$/),
    ]);
    expect(pass.stdout).toMatch(/^connection crm: write-back run \d+ started$/m);
    expect(pass.stdout).toMatch(/^write-back: attributed 1 · written 1 · unchanged 0 · rejected 0$/m);
    expect(updates().map((r) => [r.path, r.body])).toEqual([['/deals/11', { source: dryValue }]]);
    const again = await cli('flow', 'write_back', 'crm');
    expect(again.stdout).toMatch(/^connection crm: write-back run \d+ started$/m);
    expect(again.stdout).toMatch(/^write-back: attributed 1 · written 0 · unchanged 1 · rejected 0$/m);
    expect(updates()).toHaveLength(1);
    const runs = await cli('runs', 'crm');
    expect(runs.stdout).toMatch(/ write_back \(cli\) .* write-back: attributed 1 · written 0 · unchanged 1 · rejected 0$/m);
  }, 30_000);

  it('an unknown connection is refused with exit 1, naming why', async () => {
    const missing = await cli('write-back', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('connection "nope" is not configured');
    const generic = await cli('flow', 'write_back', 'nope');
    expect({ code: generic.code, stderr: generic.stderr }).toEqual({ code: 1, stderr: missing.stderr });
  });

  it('a flow the registry does not know is refused with exit 1, naming the flows', async () => {
    const unknown = await cli('flow', 'write-back', 'crm');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^there is no outbound flow "write-back" \(flows: write_back, leads/);
    expect(updates()).toHaveLength(1);
  });
});
