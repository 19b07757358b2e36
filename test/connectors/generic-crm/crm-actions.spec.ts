import connector from '../../../connectors/generic-crm';
import { withSession } from '../../../connectors/generic-crm/crm-session';
import { CrmActionRefusedError } from '../../../src/connectors/crm-actions';
import { ConnectorRegistry } from '../../../src/connectors/connector-registry';
import { UnknownOutcomeError } from '../../../src/connectors/lead-delivery';
import { CrmServer, FixtureAnswer, FixtureRequest, startCrmServer } from '../../fixtures/crm/crm-fixture-server';

/** A flow's actions as a user without a preset describes them: a paged look-up, a write. */
const actions = {
  find_things: {
    path: '/things', query: { owner: '{{deal}}', per_page: 2 },
    paginator: { type: 'page_number', page_param: 'page', page_size: 2 }, records: 'items',
    answer: "=[items[owner = $deal].{ 'id': $string(id), 'text': text }]",
  },
  make_thing: { method: 'POST', path: '/things', body: "={ 'owner': $deal, 'text': $text }", answer: '=$string(id)' },
  set_thing: { kind: 'update', method: 'PATCH', path: '/things/{{deal}}', body: "={ 'text': $text }", answer: "=[errors.{ 'id': id, 'reason': message }]" },
};

const registry = new ConnectorRegistry();
registry.register(connector);

/** Settings as the daemon takes them: checked by the registry (flow blocks left to their flows), then typed. */
function typedSettings(plain: object) {
  const problems = registry.validateSettings('generic-crm', plain, 'settings');
  if (problems.length) throw new Error(problems.join('\n'));
  return registry.instantiateSettings<object>('generic-crm', plain) as Parameters<NonNullable<typeof connector.actions>['block']>[0];
}

describe('generic-crm: CRM actions any flow names (settings.<flow>.actions)', () => {
  let crm: CrmServer;
  let answer: (request: FixtureRequest) => FixtureAnswer;
  const quiet = { log: () => {}, warn: () => {} };

  beforeAll(async () => {
    crm = await startCrmServer((request) => answer(request));
  });
  afterAll(() => crm.close());

  const settings = (flows: object) => typedSettings({ base_url: crm.url, token: 't', retry: { max_attempts: 3, base_ms: 1 }, streams: { deals: { request: { path: '/deals' }, mapping: { id: 'id' } } }, ...flows });
  const run = (name: string, variables: Record<string, unknown>) => {
    const s = settings({ my_flow: { actions } });
    return withSession({ connectionId: 'c1', settings: s, logger: quiet }, async (context) => connector.actions!.open('my_flow', context).run(name, variables));
  };

  it('a look-up reads every page of its matches (the match on the last page counts)', async () => {
    const things = [{ id: 1, owner: '9', text: 'other' }, { id: 2, owner: '8', text: 'x' }, { id: 3, owner: '7', text: 'x' }, { id: 4, owner: '7', text: 'ours' }];
    answer = (request) => {
      const page = Number(request.query.get('page') ?? 1);
      return { body: { items: things.slice((page - 1) * 2, page * 2) } };
    };
    const from = crm.requests.length;
    expect(await run('find_things', { deal: '7' })).toEqual([{ id: '3', text: 'x' }, { id: '4', text: 'ours' }]);
    expect(crm.requests.slice(from).map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it("a look-up the CRM answers with a 4xx is that record's refusal (the flow rejects the item); a refused token fails the pass", async () => {
    answer = () => ({ status: 404, body: { message: 'Deal not found' } });
    const refusal = await run('find_things', { deal: '7' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CrmActionRefusedError);
    expect(refusal).toMatchObject({ field: 'my_flow.actions.find_things', message: expect.stringContaining('Deal not found') });
    answer = () => ({ status: 401, body: { message: 'token expired' } });
    const failure = await run('find_things', { deal: '7' }).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(CrmActionRefusedError);
    expect(String(failure)).toMatch(/credentials|401/);
  });

  it('a write is sent once: a 500 is an unknown outcome (the flow looks it up), a 4xx the CRM\'s refusal with its reason', async () => {
    answer = () => ({ status: 500, body: { message: 'internal' } });
    let from = crm.requests.length;
    await expect(run('make_thing', { deal: '7', text: 't' })).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(crm.requests.length - from).toBe(1);
    answer = () => ({ status: 422, body: { message: 'owner is closed' } });
    from = crm.requests.length;
    const refusal = await run('make_thing', { deal: '7', text: 't' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CrmActionRefusedError);
    expect(refusal).toMatchObject({ field: 'my_flow.actions.make_thing', message: expect.stringContaining('owner is closed') });
    answer = (request) => ({ status: 201, body: { id: 55, owner: request.body.owner } });
    expect(await run('make_thing', { deal: '7', text: 't' })).toBe('55');
    expect(crm.requests[crm.requests.length - 1].body).toEqual({ owner: '7', text: 't' });
  });

  it.each([503, 507, 524, 502, 504])('a write answered %i is sent once: any 5xx may hide a write that landed (an unknown outcome, looked up)', async (status) => {
    answer = () => ({ status, raw: `<html><body>${status}</body></html>` });
    const from = crm.requests.length;
    await expect(run('make_thing', { deal: '7', text: 't' })).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(crm.requests.length - from).toBe(1);
  });

  it('a write refused for the rate (429, or a retry.extra rule naming the answer\'s text) took nothing: it is sent again as it is', async () => {
    const s = settings({ my_flow: { actions }, retry: { max_attempts: 3, base_ms: 1, extra: [{ status: 503, body_contains: 'QUERY_LIMIT_EXCEEDED' }, { status: 507 }] } });
    const make = () => withSession({ connectionId: 'c1', settings: s, logger: quiet }, async (context) => connector.actions!.open('my_flow', context).run('make_thing', { deal: '7', text: 't' }));
    const refusals = [
      { status: 429, headers: { 'Retry-After': '0' }, body: { message: 'slow down' } },
      { status: 503, body: { error: 'QUERY_LIMIT_EXCEEDED', error_description: 'Too many requests' } },
    ];
    let calls = 0;
    answer = () => refusals[calls++] ?? { status: 201, body: { id: 56 } };
    let from = crm.requests.length;
    expect(await make()).toBe('56');
    expect(crm.requests.length - from).toBe(3);
    // a rule of a bare 5xx status (retried on reads) names no rate refusal: the write's outcome is unknown
    answer = () => ({ status: 507, body: { message: 'insufficient storage' } });
    from = crm.requests.length;
    await expect(make()).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(crm.requests.length - from).toBe(1);
  });

  it('a write answered by a spent daily quota (daily_limit) is sent once and fails the pass as it is: no retry, no look-up', async () => {
    const s = settings({ my_flow: { actions }, daily_limit: { answers: [{ header: 'x-daily-ratelimit-token-remaining', equals: '0' }], resets: 'at midnight' } });
    answer = () => ({ status: 429, headers: { 'Retry-After': '0', 'x-daily-ratelimit-token-remaining': '0' }, body: { success: false, error: 'Request over limit' } });
    const from = crm.requests.length;
    const failure = await withSession({ connectionId: 'c1', settings: s, logger: quiet }, async (context) => connector.actions!.open('my_flow', context).run('make_thing', { deal: '7', text: 't' }))
      .catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(UnknownOutcomeError);
    expect(failure).not.toBeInstanceOf(CrmActionRefusedError);
    expect(String(failure)).toMatch(/the CRM's daily request limit is spent: the run stops without retrying; it can go again once the CRM resets the limit \(at midnight\)/);
    expect(crm.requests.length - from).toBe(1);
  });

  it('an update (kind: update) sets values, so a 5xx is retried as reads are; a 4xx is the record\'s refusal', async () => {
    let calls = 0;
    answer = () => (++calls === 1 ? { status: 503, body: { message: 'busy' } } : { body: { errors: [{ id: '7', message: 'read-only field' }] } });
    const from = crm.requests.length;
    expect(await run('set_thing', { deal: '7', text: 't' })).toEqual([{ id: '7', reason: 'read-only field' }]);
    expect(crm.requests.slice(from).map((r) => `${r.method} ${r.path}`)).toEqual(['PATCH /things/7', 'PATCH /things/7']);
    answer = () => ({ status: 404, body: { message: 'Deal not found' } });
    const refusal = await run('set_thing', { deal: '7', text: 't' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CrmActionRefusedError);
    expect(refusal).toMatchObject({ field: 'my_flow.actions.set_thing', status: 404, reason: expect.stringContaining('Deal not found') });
  });

  it("a flow's block is switched on by the user's key; its actions come with it", () => {
    expect(connector.actions!.block(settings({}), 'my_flow')).toBeNull();
    expect(connector.actions!.block(settings({ my_flow: { days: 5, actions } }), 'my_flow')).toMatchObject({ days: 5, actions: { make_thing: { method: 'POST' } } });
  });

  it('the settings accept a flow block the connector serves actions for, and still refuse an unknown key', () => {
    const base = { base_url: 'https://crm.example', token: 't' };
    expect(registry.validateSettings('generic-crm', { ...base, my_flow: { days: 5, actions } }, 'connections[0].settings')).toEqual([]);
    expect(registry.validateSettings('generic-crm', { ...base, my_flwo: { days: 5 } }, 'connections[0].settings')).toEqual([
      expect.stringMatching(/^connections\[0\]\.settings\.my_flwo: unknown key/),
    ]);
  });
});
