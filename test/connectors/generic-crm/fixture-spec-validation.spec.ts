import { FixtureHandler, reportSpecViolations, startCrmServer, withSpec } from '../../fixtures/crm/crm-fixture-server';
import { KNOWN_SPEC_ERRORS } from '../../fixtures/crm/specs/known-errors';
import { formatViolation, validateExchange } from '../../fixtures/crm/spec-validation/openapi-validator';

/**
 * The fixture server's spec validation itself: the vendors' documents catch a wrong answer and a wrong request
 * (naming the operation and the JSON path), excuse only what known-errors.ts lists, and fail the test.
 */
const get = (path: string, query = '', headers: Record<string, string> = {}) => ({
  method: 'GET', path, query: new URLSearchParams(query), headers, body: undefined,
});

describe('fixture CRMs held to the vendors\' OpenAPI documents', () => {
  it('an answer missing a required property names the operation and the JSON path', () => {
    const violations = validateExchange('hubspot', {
      ...get('/crm/v3/owners', 'limit=100', { authorization: 'Bearer x' }),
      status: 200, answer: { results: [{ id: '41', type: 'PERSON', archived: false, updatedAt: '2024-01-08T16:03:10.004Z' }] },
    });
    expect(violations.map(formatViolation)).toEqual([
      'hubspot get-/crm/v3/owners_/crm/v3/owners (GET /crm/v3/owners): response 200 $.results[0].createdAt: answer 200 $.results[0].createdAt is required',
    ]);
  });

  it('a value of the wrong type is named with its path and value', () => {
    const [violation] = validateExchange('hubspot', {
      method: 'POST', path: '/crm/v4/associations/deals/contacts/batch/read', query: new URLSearchParams(),
      headers: { authorization: 'Bearer x' }, body: { inputs: [{ id: '801' }] }, status: 200,
      answer: {
        status: 'COMPLETE', startedAt: '2024-01-20T00:00:00Z', completedAt: '2024-01-20T00:00:01Z',
        results: [{ from: { id: '801' }, to: [{ toObjectId: 501, associationTypes: [] }] }],
      },
    });
    expect(violation).toMatchObject({ part: 'response 200', path: '$.results[0].to[0].toObjectId', keyword: 'type', value: 501 });
  });

  it('a request with a parameter the operation does not have, or without the declared credentials, is a violation', () => {
    const violations = validateExchange('pipedrive', {
      ...get('/api/v2/deals', 'sort=update_time%20ASC&limit=500&api_token=t'), status: 200,
      answer: { success: true, data: [], additional_data: { next_cursor: 'x' } },
    });
    expect(violations.map((v) => [v.operationId, v.part, v.path])).toEqual([
      ['getDeals', 'security', '$'],
      ['getDeals', 'query', '$.sort'],
      ['getDeals', 'query', '$.api_token'],
    ]);
    expect(violations[0].message).toContain('header x-api-token');
  });

  it('query parameters are checked with their declared types and enums', () => {
    const violations = validateExchange('pipedrive', {
      ...get('/api/v2/deals', 'sort_by=update_time&sort_direction=ASC&limit=many', { 'x-api-token': 't' }), status: 200,
      answer: { success: true, data: [], additional_data: { next_cursor: 'x' } },
    });
    expect(violations.map((v) => `${v.part} ${v.path} ${v.keyword}`)).toEqual(['query $.sort_direction enum', 'query $.limit type']);
  });

  it('a route the documents do not have is a violation (the v1 deals list Pipedrive removed)', () => {
    const violations = validateExchange('pipedrive', { ...get('/api/v1/deals', '', { 'x-api-token': 't' }), status: 404, answer: {} });
    expect(violations).toEqual([expect.objectContaining({ part: 'route', route: 'GET /api/v1/deals', keyword: 'route' })]);
  });

  it('each known specification error carries its reason', () => {
    expect(KNOWN_SPEC_ERRORS.length).toBeGreaterThan(0);
    for (const known of KNOWN_SPEC_ERRORS) expect(known.reason.length).toBeGreaterThan(40);
  });

  describe('in the fixture server', () => {
    const owners: FixtureHandler = withSpec('hubspot', (request) => (request.path === '/crm/v3/objects/deals/search'
      ? { body: { total: 1, results: [{ id: '1', properties: { dealname: null, amount: 5 }, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z', archived: false }] } }
      : { body: { results: [{ id: '41', type: 'PERSON', archived: false, createdAt: '2024-01-08T16:03:10.004Z', updatedAt: 'yesterday' }] } }));

    it('records violations and fails the test naming them; takeViolations hands them to a test that expects them', async () => {
      const crm = await startCrmServer(owners);
      try {
        await fetch(`${crm.url}/crm/v3/owners`, { headers: { authorization: 'Bearer x' } });
        expect(reportSpecViolations).toThrow(/get-\/crm\/v3\/owners_\/crm\/v3\/owners \(GET \/crm\/v3\/owners\): response 200 \$\.results\[0\]\.updatedAt: .*date-time/);
        expect(crm.violations).toEqual([]);
        await fetch(`${crm.url}/crm/v3/owners`);
        expect(crm.takeViolations().map((v) => v.part)).toEqual(['security', 'response 200']);
      } finally {
        await crm.close();
      }
    });

    it('excuses a listed error only where the list says (a null property, not a number)', async () => {
      const crm = await startCrmServer(owners);
      try {
        await fetch(`${crm.url}/crm/v3/objects/deals/search`, {
          method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
          body: JSON.stringify({ filterGroups: [], sorts: [{ propertyName: 'hs_lastmodifieddate', direction: 'ASCENDING' }], properties: ['amount'], limit: 100 }),
        });
        expect(crm.takeViolations().map((v) => `${v.path} ${JSON.stringify(v.value)}`)).toEqual(['$.results[0].properties.amount 5']);
      } finally {
        await crm.close();
      }
    });
  });
});
