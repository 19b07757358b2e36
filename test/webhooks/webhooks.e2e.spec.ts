import { runCliInProcess } from '../cli/cli-harness';
import { api } from '../daemon/daemon-harness';
import { sendHook, webhookCalls } from '../fixtures/crm/webhook-calls';
import { ADMIN_TOKEN, PresetName, PUBLIC_URL, WebhookDaemon } from './webhook-daemon';

const DEBOUNCE_MS = 1000;
/** a run starts after the debounce; the timer, the trigger path and the store take a moment more */
const START_SLACK_MS = 1500;
const PRESET_NAMES: PresetName[] = ['amocrm', 'bitrix24', 'pipedrive', 'hubspot'];
/** demo visits of the sandbox's seed (1000001…): the changed deals point at them */
const visitFor = (index: number) => String(1_000_011 + index);

/**
 * CRM webhooks end to end: the real daemon on port 0, one connection per preset against its fixture CRM, the
 * sandbox as the service. Each preset's real call shape, signed as its CRM signs it, starts a run with trigger
 * `webhook` within the debounce, and the changed deal reaches the service; bad calls are 401 and start nothing.
 */
describe('webhooks: POST /hooks/{connection} starts the sync', () => {
  let d: WebhookDaemon;
  const call = (id: string, dealId: string, extra: { secret?: string; timestamp?: number } = {}) => {
    const c = d.connection(id);
    return webhookCalls[c.preset]({ connection: id, secret: extra.secret ?? c.secret, dealId, publicUrl: PUBLIC_URL, timestamp: extra.timestamp });
  };
  const webhookRuns = async (id: string) => (await d.runs(id)).filter((r) => r.trigger === 'webhook');

  beforeAll(async () => {
    d = await WebhookDaemon.start([
      ...PRESET_NAMES.map((preset) => ({ id: preset, preset })),
      // a run of this one takes seconds (one CRM request a second): calls land during it
      { id: 'slow', preset: 'pipedrive' as const, settings: { rate_limit: { requests: 3, per_seconds: 1 } } },
      { id: 'burst', preset: 'bitrix24' as const },
    ]);
    for (const id of [...PRESET_NAMES, 'slow', 'burst']) {
      const first = await d.syncNow(id);
      expect({ id, status: first.status, error: first.error }).toEqual({ id, status: 'succeeded', error: null });
    }
  }, 120_000);
  afterAll(async () => {
    await d?.stop();
  });

  describe.each(PRESET_NAMES.map((preset, index) => [preset, index] as const))('%s', (preset, index) => {
    it('its real call, correctly signed: 202 with an empty body, a webhook run within the debounce, the changed deal in the service', async () => {
      const c = d.connection(preset);
      const dealId = c.crm.dealIds()[0];
      const visit = visitFor(index);
      expect(await d.orderVisit(dealId)).not.toBe(visit);
      c.crm.setVisit(dealId, visit);
      const before = (await d.runs(preset)).length;
      const sentAt = Date.now();
      const answer = await sendHook(d.url, call(preset, dealId));
      expect(answer).toEqual({ status: 202, body: '' });

      const run = await d.until(async () => (await d.runs(preset)).slice(before).find((r) => r.trigger === 'webhook'), 10_000, 'a webhook run');
      const startedAfter = Date.parse(run.started_at) - sentAt;
      expect({ startedAfter, withinDebounce: startedAfter >= DEBOUNCE_MS - 50 && startedAfter <= DEBOUNCE_MS + START_SLACK_MS }).toMatchObject({ withinDebounce: true });
      expect(run.mode).toBe('incremental');
      const done = await d.finished(preset, run.id);
      expect({ status: done.status, error: done.error, sent: done.streams.deals?.sent }).toEqual({ status: 'succeeded', error: null, sent: 1 });
      expect(await d.orderVisit(dealId)).toBe(visit);
      expect((await d.runs(preset)).length).toBe(before + 1);
    }, 30_000);
  });

  it('a wrong signature, password, token or URL secret, a stale HubSpot timestamp, a missing credential: 401 with an empty body, and nothing starts', async () => {
    const befores = new Map<string, number>();
    for (const id of PRESET_NAMES) befores.set(id, (await d.runs(id)).length);
    const refusedBefore = new Map<string, number>();
    for (const id of PRESET_NAMES) refusedBefore.set(id, await d.metric(id, 'refused'));
    const hubspotCall = call('hubspot', '8001');
    const bad = [
      { id: 'amocrm', call: call('amocrm', '7001', { secret: 'not-the-secret' }) },
      { id: 'amocrm', call: { ...call('amocrm', '7001'), path: '/hooks/amocrm' } },
      { id: 'bitrix24', call: call('bitrix24', '1', { secret: 'wrong-application-token' }) },
      { id: 'bitrix24', call: { ...call('bitrix24', '1'), body: 'event=ONCRMDEALUPDATE&data[FIELDS][ID]=1' } },
      { id: 'pipedrive', call: call('pipedrive', '1001', { secret: 'wrong-password' }) },
      { id: 'pipedrive', call: { ...call('pipedrive', '1001'), headers: { 'content-type': 'application/json' } } },
      { id: 'hubspot', call: { ...hubspotCall, body: hubspotCall.body.replace('"amount"', '"dealname"') } },
      { id: 'hubspot', call: call('hubspot', '8001', { secret: 'another-client-secret' }) },
      { id: 'hubspot', call: call('hubspot', '8001', { timestamp: Date.now() - 6 * 60_000 }) },
      { id: 'hubspot', call: call('hubspot', '8001', { timestamp: Date.now() + 6 * 60_000 }) },
    ];
    for (const { id, call: badCall } of bad) {
      expect({ id, path: badCall.path.replace(/[^/]+$/, '…'), answer: await sendHook(d.url, badCall) }).toMatchObject({ id, answer: { status: 401, body: '' } });
    }
    expect((await sendHook(d.url, { ...call('pipedrive', '1001'), path: '/hooks/no-such-connection' })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 1000));
    for (const id of PRESET_NAMES) expect({ id, runs: (await d.runs(id)).length }).toEqual({ id, runs: befores.get(id) });
    const expectedRefusals = new Map<string, number>();
    for (const { id } of bad) expectedRefusals.set(id, (expectedRefusals.get(id) ?? 0) + 1);
    for (const id of PRESET_NAMES) {
      expect({ id, refused: (await d.metric(id, 'refused')) - refusedBefore.get(id)! }).toEqual({ id, refused: expectedRefusals.get(id) });
    }
    // the reasons are in the log, the secrets are not
    expect(d.output()).toContain('webhook call refused: the Basic auth password is wrong');
    expect(d.output()).toMatch(/X-HubSpot-Request-Timestamp is more than 300 s from now/);
    for (const c of d.connections.values()) expect(d.output()).not.toContain(c.secret);
  }, 30_000);

  it('30 calls in one second start at most two runs; calls beyond 10 a second are answered 429', async () => {
    const before = (await webhookRuns('burst')).length;
    const answers: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 30; i++) {
      answers.push((await sendHook(d.url, call('burst', String(1 + (i % 3))))).status);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + (i + 1) * 30 - Date.now())));
    }
    expect(Date.now() - start).toBeLessThan(1500);
    expect(answers.filter((s) => s === 202).length).toBeLessThanOrEqual(20);
    expect(answers.filter((s) => s === 202).length).toBeGreaterThanOrEqual(10);
    expect(answers.every((s) => s === 202 || s === 429)).toBe(true);
    await d.until(async () => (await webhookRuns('burst')).length > before, 10_000, 'the burst\'s run');
    await new Promise((resolve) => setTimeout(resolve, 3 * DEBOUNCE_MS));
    const runs = (await webhookRuns('burst')).slice(before);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.length).toBeLessThanOrEqual(2);
    expect(await d.metric('burst', 'rate_limited')).toBe(answers.filter((s) => s === 429).length);
  }, 30_000);

  it('calls during a run give exactly one follow-up run after it, never two runs at once', async () => {
    const runs = await d.runs('slow');
    const started = await api<{ run_id: number }>(d.url, ADMIN_TOKEN, '/api/connections/slow/resync', { method: 'POST', body: '{}' });
    expect(started.status).toBe(202);
    const c = d.connection('slow');
    // the calls' debounce ends while the full run still reads (three requests a second)
    for (let i = 0; i < 5; i++) {
      expect((await sendHook(d.url, call('slow', c.crm.dealIds()[0]))).status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 300));
    const during = (await d.runs('slow')).find((r) => r.id === started.body.run_id)!;
    expect(during.status).toBe('running');
    const status = await api<{ connection: string; follow_up_queued: boolean }[]>(d.url, ADMIN_TOKEN, '/api/webhooks');
    expect(status.body.find((s) => s.connection === 'slow')?.follow_up_queued).toBe(true);
    const resync = await d.finished('slow', started.body.run_id);
    const followUp = await d.until(async () => (await d.runs('slow')).find((r) => r.trigger === 'webhook' && r.id > resync.id && r.status !== 'running'), 30_000, 'the follow-up');
    await new Promise((resolve) => setTimeout(resolve, 2 * DEBOUNCE_MS));
    const after = (await d.runs('slow')).slice(runs.length);
    expect(after.map((r) => ({ trigger: r.trigger, status: r.status }))).toEqual([
      { trigger: 'admin', status: 'succeeded' },
      { trigger: 'webhook', status: 'succeeded' },
    ]);
    expect(Date.parse(followUp.started_at)).toBeGreaterThanOrEqual(Date.parse(resync.finished_at!));
  }, 60_000);

  it('a paused connection records the call and runs nothing', async () => {
    expect((await api(d.url, ADMIN_TOKEN, '/api/connections/amocrm/pause', { method: 'POST', body: '{}' })).status).toBe(200);
    try {
      const before = (await d.runs('amocrm')).length;
      expect((await sendHook(d.url, call('amocrm', d.connection('amocrm').crm.dealIds()[0]))).status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 1000));
      expect((await d.runs('amocrm')).length).toBe(before);
      expect(await d.metric('amocrm', 'paused')).toBe(1);
      const status = await api<{ connection: string; last_outcome: string; last_call_at: string }[]>(d.url, ADMIN_TOKEN, '/api/webhooks');
      expect(status.body.find((s) => s.connection === 'amocrm')).toMatchObject({ last_outcome: 'paused', last_call_at: expect.any(String) });
    } finally {
      await api(d.url, ADMIN_TOKEN, '/api/connections/amocrm/resume', { method: 'POST', body: '{}' });
    }
  }, 30_000);

  it('a body over 1 MB is answered 413 and starts nothing', async () => {
    const before = (await d.runs('pipedrive')).length;
    const big = { ...call('pipedrive', '1001'), body: JSON.stringify({ meta: { entity: 'deal' }, padding: 'x'.repeat(1024 * 1024 + 10) }) };
    expect((await sendHook(d.url, big)).status).toBe(413);
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 500));
    expect((await d.runs('pipedrive')).length).toBe(before);
    expect(await d.metric('pipedrive', 'too_large')).toBe(1);
  }, 30_000);

  it('a body over 1 MB from a caller that proves nothing is answered 401, as a connection that does not exist', async () => {
    const padding = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) });
    const forged = { ...call('pipedrive', '1001', { secret: 'not-the-secret' }), body: padding };
    const nowhere = { ...forged, path: forged.path.replace('/hooks/pipedrive', '/hooks/no-such-connection') };
    expect(nowhere.path).toContain('/hooks/no-such-connection');
    expect([(await sendHook(d.url, forged)).status, (await sendHook(d.url, nowhere)).status]).toEqual([401, 401]);
    expect(await d.metric('pipedrive', 'too_large')).toBe(1);
  }, 30_000);

  it('/metrics counts the calls by connection and outcome; the admin API shows each connection\'s last call', async () => {
    for (const id of PRESET_NAMES) expect({ id, accepted: await d.metric(id, 'accepted') }).toEqual({ id, accepted: 1 });
    const anonymous = await api(d.url, null, '/api/webhooks');
    expect(anonymous.status).toBe(401);
    const status = await api<{ connection: string; enabled: boolean; last_accepted_at: string | null }[]>(d.url, ADMIN_TOKEN, '/api/webhooks');
    for (const id of PRESET_NAMES) {
      expect(status.body.find((s) => s.connection === id)).toMatchObject({ enabled: true, last_accepted_at: expect.stringMatching(/^\d{4}-/) });
    }
    expect(JSON.stringify(status.body)).not.toMatch(/hook-secret-/);
  });

  it('the CLI shows the runs a webhook started with their trigger', async () => {
    const runs = await runCliInProcess(['--config', d.configFile, 'runs', 'pipedrive', '--limit', '5']);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(/^#\d+ succeeded\s+incremental \(webhook\)/m);
  });

  it('the admin OpenAPI documents the hook routes, outside the token', async () => {
    const doc = await api<{ paths: Record<string, { post?: { responses: Record<string, unknown> } }> }>(d.url, null, '/docs-json');
    expect(doc.status).toBe(200);
    for (const path of ['/hooks/{connection}', '/hooks/{connection}/{secret}']) {
      expect(Object.keys(doc.body.paths[path]?.post?.responses ?? {}).sort()).toEqual(['202', '401', '413', '429']);
    }
  });
});
