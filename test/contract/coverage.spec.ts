import { CONTRACT_PLAN, allOperations } from './contract-plan';

/**
 * The section files run in parallel workers and each proves, in its last test, that the
 * sandbox acknowledged every operation of its share. This proves the shares together are
 * exactly TRACKER_OPERATIONS: each operation in one share, none unknown.
 */
describe('contract: coverage of TRACKER_OPERATIONS', () => {
  const planned = Object.values(CONTRACT_PLAN).flat() as string[];

  it('the shares of the contract files are exactly the operations of TRACKER_OPERATIONS', () => {
    expect([...planned].sort()).toEqual(allOperations().sort());
  });

  it('no operation is planned twice', () => {
    expect(planned.filter((op, i) => planned.indexOf(op) !== i)).toEqual([]);
  });
});
