import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxPreparedSql } from '../../src/sandbox/storage/prepared-sql';
import { openSandboxDataSource } from '../../src/sandbox/storage/sandbox-data-source';

/**
 * A request that reaches the sandbox while it shuts down (a late retry, a slow client) must get an error,
 * not crash the process: SQLite reports a statement prepared on a closing connection as an 'error' event
 * when no callback is there to take it.
 */
describe('SandboxPreparedSql while the database closes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'prepared-sql-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects a query first prepared while the connection is closing', async () => {
    const dataSource = await openSandboxDataSource(join(dir, 'sandbox.sqlite'));
    const sql = new SandboxPreparedSql(dataSource);
    await expect(sql.all('SELECT 1 AS one', [])).resolves.toEqual([{ one: 1 }]);
    await sql.finalizeAll();
    const closing = dataSource.destroy(); // the connection's close is queued from here on
    await expect(sql.all('SELECT 2 AS two', [])).rejects.toThrow(/closed/);
    await expect(sql.run('BEGIN', [])).rejects.toThrow(/closed/);
    await closing;
  });

  it('rejects a query after the connection is closed', async () => {
    const dataSource = await openSandboxDataSource(join(dir, 'sandbox.sqlite'));
    const sql = new SandboxPreparedSql(dataSource);
    await dataSource.destroy();
    await expect(sql.all('SELECT 1', [])).rejects.toThrow(/closed/);
  });
});
