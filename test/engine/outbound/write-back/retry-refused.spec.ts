import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { InvalidRunOptionsError } from '../../../../src/engine/engine-errors';
import { RejectionRetry } from '../../../../src/engine/run/rejection-retry';
import { createStoreDataSource } from '../../../../src/store/store-data-source';
import { StoreRepositories } from '../../../../src/store/store-repositories';

/** A write-back's refusals are not re-sent by a sync retry: the next pass writes them again. */
describe('retrying the rejected records of a write-back run', () => {
  let dir: string;
  let ds: DataSource;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-retry-'));
    ds = await createStoreDataSource({ dataDir: dir });
  });
  afterAll(async () => {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused, pointing at the next write-back pass', async () => {
    const stores = new StoreRepositories(ds);
    const run = await stores.runs.create({ connectionId: 'amo', mode: 'write_back', since: null, trigger: 'cli', holder: 'h' });
    await stores.writeBack.recordBatch({
      runId: run.id, connectionId: 'amo', counters: { attributed: 1, written: 0, unchanged: 0, rejected: 1 }, written: [],
      rejected: [{ externalId: 'd2', field: 'write_back', reason: 'the CRM refused the update: deal is locked', fingerprint: 'w1:y' }],
    });
    const retry = new RejectionRetry(stores.runs, stores.rejected).idsOf(run.id);
    await expect(retry).rejects.toBeInstanceOf(InvalidRunOptionsError);
    await expect(retry).rejects.toThrow(`run ${run.id} is a write-back: what the CRM refused is written again by the next write-back pass`);
  });
});
