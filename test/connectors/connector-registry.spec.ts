import exampleCustom from '../../connectors/example-custom';
import genericCrm from '../../connectors/generic-crm';
import { GenericCrmSettings } from '../../connectors/generic-crm/settings';
import { ConnectorRegistry } from '../../src/connectors/connector-registry';

describe('ConnectorRegistry', () => {
  const registry = new ConnectorRegistry();
  registry.register(genericCrm);
  registry.register(exampleCustom);

  it('lists and finds connectors, and refuses a second one with the same name', () => {
    expect(registry.list().map((d) => d.name)).toEqual(['generic-crm', 'example-custom']);
    expect(registry.get('generic-crm')).toBe(genericCrm);
    expect(registry.get('amo')).toBeUndefined();
    expect(() => registry.register(genericCrm)).toThrow('connector "generic-crm" is already registered');
  });

  it('accepts the settings a user writes for a preset', () => {
    const settings = { preset: 'amocrm', base_url: 'https://example.amocrm.ru', token: 't', status_map: { '142': '1', '*': '0' } };
    expect(registry.validateSettings('generic-crm', settings, 'connections[0]')).toEqual([]);
  });

  it('names every problem with its config path', () => {
    const problems = registry.validateSettings(
      'generic-crm',
      {
        preset: 'salesforce',
        base_url: 42,
        foo: 1,
        status_map: { '142': { id: 1 } },
        streams: { deals: { paginator: { type: 'magic', page_size: 0 }, bogus: true } },
        rate_limit: { requests: 'many' },
      },
      'connections[0]',
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'connections[0].settings.preset: "salesforce" must be one of the following values: amocrm, bitrix24, hubspot, pipedrive',
        'connections[0].settings.base_url: must be a string',
        'connections[0].settings.foo: unknown key',
        'connections[0].settings.status_map: must be an object whose values are strings',
        'connections[0].settings.streams.deals.bogus: unknown key',
        'connections[0].settings.streams.deals.paginator.type: "magic" must be one of the following values: none, page_number, offset, cursor, next_url, link_header, keyset',
        'connections[0].settings.streams.deals.paginator.page_size: must not be less than 1',
        'connections[0].settings.rate_limit.requests: must be a positive number; must be a number',
        'connections[0].settings.rate_limit.per_seconds: must be a positive number; must be a number',
      ]),
    );
    expect(problems).toHaveLength(9);
  });

  it('indexes list items and accepts a trailing .settings in the path', () => {
    const problems = registry.validateSettings('generic-crm', { base_url: 'x', errors: [{ path: 'error' }, { path: 5 }] }, 'connections[1].settings');
    expect(problems).toEqual(['connections[1].settings.errors[1].path: must be a string']);
  });

  it('validates the example plugin with its own class', () => {
    expect(registry.validateSettings('example-custom', { path: ['a'] }, 'connections[3]')).toEqual(['connections[3].settings.path: must be a string']);
    expect(registry.validateSettings('example-custom', null, 'connections[3]')).toEqual(['connections[3].settings.path: must be a string']);
    expect(registry.validateSettings('example-custom', 'file.jsonl', 'connections[3]')).toEqual(['connections[3].settings: must be an object']);
  });

  it('says which connectors exist when the name is unknown', () => {
    expect(registry.validateSettings('amo', {}, 'connections[2]')).toEqual([
      'connections[2].connector: "amo" is not a known connector (known: generic-crm, example-custom)',
    ]);
  });

  it('says why when the connector named is a plugin that failed to load', () => {
    const withFailures = new ConnectorRegistry();
    withFailures.register(genericCrm);
    withFailures.failures.push({ path: '/opt/plugins/my-crm', reason: '/opt/plugins/my-crm/index.ts:3:7: \',\' expected.' });
    withFailures.failures.push({ path: '/opt/plugins/other', reason: 'boom while loading' });
    expect(withFailures.validateSettings('my-crm', {}, 'connections[0]')).toEqual([
      "connections[0].connector: \"my-crm\" failed to load from /opt/plugins/my-crm: /opt/plugins/my-crm/index.ts:3:7: ',' expected.",
    ]);
    // a plugin whose folder is named otherwise: every failure is listed
    expect(withFailures.validateSettings('renamed', {}, 'connections[1]')).toEqual([
      'connections[1].connector: "renamed" is not a known connector (known: generic-crm); plugins that failed to load: ' +
        "/opt/plugins/my-crm (/opt/plugins/my-crm/index.ts:3:7: ',' expected.); /opt/plugins/other (boom while loading)",
    ]);
  });

  it('instantiates typed settings with defaults applied', () => {
    const settings = registry.instantiateSettings<GenericCrmSettings>('generic-crm', { base_url: 'https://x', streams: { deals: { paginator: { type: 'offset' } } } });
    expect(settings).toBeInstanceOf(GenericCrmSettings);
    expect(settings.visit_field).toBe('tracker');
    expect(settings.streams?.deals?.paginator?.constructor.name).toBe('PaginatorDefinition');
    expect(() => registry.instantiateSettings('amo', {})).toThrow(/"amo" is not a known connector/);
  });
});
