import * as fs from 'fs';
import * as path from 'path';
import connector from '../../../connectors/generic-crm';
import { loadPreset, presetsFolder } from '../../../connectors/generic-crm/definition/presets';
import { deepMerge, resolveExtends } from '../../../connectors/generic-crm/definition/merge';
import { GenericCrmSettings, PRESET_NAMES } from '../../../connectors/generic-crm/settings';
import { settingsProblems } from '../../../src/connectors/settings-validation';
import * as amocrm from '../../fixtures/crm/amocrm';
import { startCrmServer } from '../../fixtures/crm/crm-fixture-server';
import { readAll, typedSettings } from '../read-helper';

describe('generic-crm presets', () => {
  it.each(PRESET_NAMES)('%s is valid against the settings schema and defines all three streams', (name) => {
    const preset = loadPreset(name);
    // a flow's block (its `actions`) is the flow's to check, as the connector registry leaves it to it
    const flowKeys = new Set(connector.actions!.flowKeys(preset));
    const rest = Object.fromEntries(Object.entries(preset).filter(([key]) => !flowKeys.has(key)));
    expect(settingsProblems(GenericCrmSettings, { ...rest, base_url: 'https://x', token: 't' }, name)).toEqual([]);
    const settings = typedSettings(connector, { preset: name, base_url: 'https://x', token: 't' });
    expect(connector.streams(settings).map((s) => s.name)).toEqual(['managers', 'clients', 'deals']);
    expect(connector.streams(settings).filter((s) => s.incremental).map((s) => s.name)).toEqual(['clients', 'deals']);
  });

  it('daily_limit: each answer names one sign (else it would mark every 429, or none)', () => {
    const problems = (answers: unknown[]) => settingsProblems(GenericCrmSettings, { base_url: 'https://x', daily_limit: { answers } }, 'settings');
    expect(problems([{ status: 429, header: 'x-daily-ratelimit-token-remaining', equals: '0' }, { path: 'policyName', equals: 'DAILY' }, { body_contains: 'daily' }])).toEqual([]);
    for (const bad of [{ status: 429 }, { header: 'x-daily-ratelimit-token-remaining' }, { path: 'policyName', body_contains: 'DAILY', equals: 'DAILY' }, { body_contains: 'daily', equals: 'x' }]) {
      expect(problems([bad])).toEqual([expect.stringMatching(/^settings\.daily_limit\.answers: each answer must name one sign: `header` with `equals`, `path` with `equals`, or `body_contains`/)]);
    }
    expect(problems([])).toEqual([expect.stringMatching(/^settings\.daily_limit\.answers: /)]);
  });

  it('ships one YAML per preset plus _common', () => {
    expect(PRESET_NAMES).toEqual(['amocrm', 'bitrix24', 'hubspot', 'pipedrive']);
    const files = fs.readdirSync(presetsFolder()).filter((f) => f.endsWith('.yaml')).sort();
    expect(files).toEqual(['_common.yaml', ...PRESET_NAMES.map((n) => `${n}.yaml`)].sort());
    expect(path.basename(presetsFolder())).toBe('presets');
  });

  it('lets the user override one part of a preset stream and keeps the rest', async () => {
    const crm = await startCrmServer(amocrm.handler);
    try {
      const plain = { ...amocrm.settings(crm.url), streams: { deals: { mapping: { cost: '=price / 2', manager_id: null } } } };
      const { records, rejected } = await readAll(connector, 'deals', plain);
      expect(records[0]).toEqual({ ...amocrm.expected.deals[0], cost: 7500, manager_id: null });
      expect(records.map((r) => r.id)).toEqual(['7001', '7003', '7004']);
      // price is null in 7002: the expression fails for that record only, which is rejected naming the field
      expect(rejected).toEqual([
        expect.objectContaining({ id: '7002', field: 'cost', reason: expect.stringMatching(/^=price \/ 2 failed: /) }),
      ]);
    } finally {
      await crm.close();
    }
  });

  it('resolves extends (in order, own keys last) and names an unknown definition', () => {
    const definitions = { a: { x: 1, nested: { p: 1 } }, b: { extends: 'a', y: 2, nested: { q: 2 } } };
    expect(resolveExtends({ s: { extends: ['b'], y: 3 } }, definitions)).toEqual({ s: { x: 1, y: 3, nested: { p: 1, q: 2 } } });
    expect(() => resolveExtends({ s: { extends: 'zzz' } }, definitions)).toThrow('s: extends "zzz" is not a known definition');
    expect(deepMerge({ list: [1, 2], keep: true }, { list: [3] })).toEqual({ list: [3], keep: true });
  });

  it('check() reaches the CRM and reports a bad token with the request that failed', async () => {
    const crm = await startCrmServer(amocrm.handler);
    try {
      const context = { connectionId: 'amo', logger: { log: () => {}, warn: () => {} } };
      const good = typedSettings(connector, amocrm.settings(crm.url));
      expect(await connector.check(good, { ...context, settings: good })).toEqual({ ok: true, message: `${crm.url} answered the managers request` });
      const bad = typedSettings(connector, { ...amocrm.settings(crm.url), token: 'wrong-token' });
      const result = await connector.check(bad, { ...context, settings: bad });
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/^connection amo, stream managers, GET http:\/\/127\.0\.0\.1:\d+\/api\/v4\/users\?limit=250: the CRM refused the connection's credentials \(settings\.token \/ settings\.auth\): HTTP 401: /);
    } finally {
      await crm.close();
    }
  });

  it('check() hands over the stages no status_map key covers as facts, and leaves wording them to the application', async () => {
    const crm = await startCrmServer(amocrm.handler);
    try {
      const { status_map: _map, ...withoutMap } = amocrm.settings(crm.url);
      const partial = typedSettings(connector, { ...withoutMap, status_map: { '142': '1', '143': '2' } });
      const result = await connector.check(partial, { connectionId: 'amo', settings: partial, logger: { log: () => {}, warn: () => {} } });
      expect(result.ok).toBe(true);
      expect(result.uncovered_stages?.map((s) => s.id)).toEqual(['55500', '55501', '55502', '56601']);
      expect(result.uncovered_stages?.[0]).toMatchObject({ id: '55500', status: null, outcome: 'open' });
      expect(JSON.stringify(result.warnings ?? [])).not.toContain('status_map');
    } finally {
      await crm.close();
    }
  });

  it('each preset describes its stages once, in discover: (no top-level stages:)', () => {
    for (const name of PRESET_NAMES) {
      const preset = loadPreset(name) as { stages?: unknown; discover?: { pipelines?: unknown } };
      expect({ name, stages: preset.stages, pipelines: !!preset.discover?.pipelines }).toEqual({ name, stages: undefined, pipelines: true });
    }
  });

  it('discover() lists the source fields of each stream with an example', async () => {
    const crm = await startCrmServer(amocrm.handler);
    try {
      const settings = typedSettings(connector, amocrm.settings(crm.url));
      const fields = await connector.discover!(settings, { connectionId: 'amo', settings, logger: { log: () => {}, warn: () => {} } });
      expect(fields).toEqual(
        expect.arrayContaining([
          { stream: 'managers', name: 'email', type: 'string', example: 'anna@example.ru' },
          { stream: 'deals', name: 'status_id', type: 'number', example: 142 },
        ]),
      );
    } finally {
      await crm.close();
    }
  });
});
