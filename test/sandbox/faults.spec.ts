import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { querySqlite } from '../faults/support/sqlite-file';
import { SandboxHarness } from './sandbox-harness';

/** Fault injection: the configured fraction of requests fails (429, 500, too late, dropped); latency is added. */
describe('sandbox fault injection', () => {
  it('fails roughly the configured fraction of requests, in every kind', async () => {
    const sandbox = await SandboxHarness.start({ faults: 0.4, clientTimeoutMs: 100, seed: 'none' });
    const kinds = new Map<string, number>();
    const count = (kind: string) => kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    try {
      // 240 draws: the bounds below are 4.7 standard deviations from 0.4 (with 120, 3.4; 28 faults in a clean-clone CI
      // fell 3.8 below it: about 1 run in 10,000, but this suite runs often)
      const requests = 240;
      const one = async () => {
        try {
          const response = await fetch(`${sandbox.baseUrl}/project/integration/manager/list?project=1`, {
            method: 'POST', headers: { 'Api-key': sandbox.apiKey, 'Use-Http-Code': '1' }, signal: AbortSignal.timeout(300),
          });
          await response.text();
          count(response.status === 200 ? 'ok' : String(response.status));
        } catch (error) {
          count((error as Error).name === 'TimeoutError' ? 'timeout' : 'dropped');
        }
      };
      // A few at a time, so that a busy machine does not turn healthy answers into timeouts.
      for (let sent = 0; sent < requests; sent += 12) await Promise.all(Array.from({ length: 12 }, one));
      const summary = Object.fromEntries(kinds);
      const failed = requests - (kinds.get('ok') ?? 0);
      expect({ summary, share: failed / requests > 0.25 }).toEqual({ summary, share: true });
      expect({ summary, share: failed / requests < 0.55 }).toEqual({ summary, share: true });
      for (const kind of ['429', '500', 'timeout', 'dropped']) expect(kinds.get(kind) ?? 0).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });

  it('carries out a request answered too late, and closes only after it (no SQLITE_BUSY from a statement cut short)', async () => {
    // every request is faulted; a quarter answer too late: the client gives up at 300 ms, the write lands at 400 ms
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-late-'));
    const db = join(dir, 'sandbox.sqlite');
    const sandbox = await SandboxHarness.start({ db, faults: 1, clientTimeoutMs: 150, seed: 'none' });
    try {
      let late: string | null = null;
      for (let i = 0; i < 60 && late === null; i++) {
        const id = `late-${i}`;
        try {
          const response = await fetch(`${sandbox.baseUrl}/project/add-orders?project=${sandbox.projectId}`, {
            method: 'POST', headers: { 'Api-key': sandbox.apiKey, 'Content-Type': 'application/json' },
            body: JSON.stringify([{ id, date_create: '2025-03-10 12:00:00+0000', name: 'late order' }]), signal: AbortSignal.timeout(300),
          });
          await response.text();
        } catch (error) {
          if ((error as Error).name === 'TimeoutError') late = id;
        }
      }
      expect(late).not.toBeNull();
      await sandbox.close(); // at once: the late request's handler is still waiting to write
      const rows = await querySqlite<{ id: string }>(db, 'SELECT id FROM sb_order WHERE id = ?', [late]);
      expect(rows).toEqual([{ id: late }]);
    } finally {
      await sandbox.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds the fixed latency to every request', async () => {
    const sandbox = await SandboxHarness.start({ latencyMs: 120, seed: 'none' });
    try {
      const started = Date.now();
      const answer = await sandbox.post('project/integration/manager/list', {});
      expect(answer.body.status).toBe('success');
      expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    } finally {
      await sandbox.close();
    }
  });
});
