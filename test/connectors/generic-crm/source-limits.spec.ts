import { closeSourceLimits, createSourceLimits, scheduleRequest } from '../../../connectors/generic-crm/http/source-limits';

/** rate_limits: a kind of request (matched by path) waits for its own limiter besides the general one. */
describe('source limits: a kind of request with a limit of its own', () => {
  it('spaces the kind\'s requests a tenth beyond 1/per_second, and leaves the others to the general limiter', async () => {
    const limits = createSourceLimits({ requests: 1000, per_seconds: 1 }, { search: { per_second: 20, path: '/search$' } });
    try {
      const at: Record<string, number[]> = { search: [], other: [] };
      const send = (path: string, kind: string) => scheduleRequest(limits, path, async () => void at[kind].push(Date.now()));
      await Promise.all([
        ...[1, 2, 3, 4].map(() => send('/crm/v3/objects/deals/search', 'search')),
        ...[1, 2, 3, 4].map(() => send('/crm/v3/owners', 'other')),
      ]);
      for (let i = 1; i < 4; i++) expect(at.search[i] - at.search[i - 1]).toBeGreaterThanOrEqual(54);
      expect(at.other[3] - at.other[0]).toBeLessThan(54 * 3);
    } finally {
      await closeSourceLimits(limits);
    }
  });

  it('names the setting that is wrong', () => {
    expect(() => createSourceLimits(undefined, { search: { per_second: 0, path: '/search$' } })).toThrow('rate_limits.search.per_second: must be a positive number');
    expect(() => createSourceLimits(undefined, { search: { per_second: 4, path: '(' } })).toThrow(/^rate_limits\.search\.path: /);
    expect(() => createSourceLimits(undefined, { search: { per_second: 4 } as never })).toThrow('rate_limits.search.path: must be a regular expression of request paths');
  });
});
