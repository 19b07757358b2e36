import { readFileSync } from 'fs';
import { join } from 'path';
import { listConfigKeys } from '../../src/config/config-keys';
import { validateConfig } from '../../src/config/load-config';

describe('listConfigKeys', () => {
  const keys = listConfigKeys();

  it('lists every key of the schema with type, default and description', () => {
    const paths = keys.map((key) => key.path);
    expect(paths).toEqual(expect.arrayContaining([
      'server.port', 'data_dir', 'tracker.base_url', 'tracker.batch_size', 'tracker.rate_limit', 'tracker.rate_limit.per_hour',
      'sandbox.faults', 'admin.token', 'log.format', 'store.url', 'connector_paths', 'connections',
      'connections[].id', 'connections[].schedule', 'connections[].settings', 'connections[].sync.overlap_seconds',
    ]));
    expect(new Set(paths).size).toBe(paths.length);
    for (const key of keys) {
      expect([key.path, key.type.length > 0, key.description.length > 10]).toEqual([key.path, true, true]);
    }
  });

  it('shows the defaults the loader applies', () => {
    const document = { connections: [{ id: 'a', connector: 'x', webhook: { secret: 's', verify: { type: 'basic' } } }], alerts: [{ id: 'o', type: 'webhook', url: 'https://example.com/hook' }], projects: { acme: { project: '2', base_url: 'https://acme.example.test/v1', api_key: 'acme-key', rate_limit: {} } }, admin: { tokens: [{ name: 'acme', token: 'acme-token', projects: ['acme'] }] } };
    const loaded = validateConfig(document, { env: {} }) as unknown as Record<string, unknown>;
    for (const key of keys.filter((k) => k.default !== undefined && k.path !== 'connections' && k.path !== 'alerts' && k.path !== 'admin.tokens')) {
      const parts = key.path.replace('connections[]', 'connections.0').replace('alerts[]', 'alerts.0').replace('tokens[]', 'tokens.0').replace('<name>', 'acme').split('.');
      const value = parts.reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], loaded);
      expect([key.path, JSON.parse(JSON.stringify(value))]).toEqual([key.path, key.default]);
    }
  });

  it('has every key shown in the default config file', () => {
    const yaml = readFileSync(join(__dirname, '../../config/tracker-sync.yaml'), 'utf8');
    const written = new Set([...yaml.matchAll(/^[\s#-]*([a-z_]+):/gm)].map((match) => match[1]));
    const missing = keys.map((key) => key.path.split('.').pop()!.replace('[]', '')).filter((name) => !written.has(name));
    expect(missing).toEqual([]);
  });
});
