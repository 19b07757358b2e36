import { isSecretKey, redactSecrets } from '../../src/config/redact';

describe('redactSecrets', () => {
  it('replaces values under secret-looking keys at any depth, in any spelling', () => {
    const settings = {
      auth: { type: 'oauth2', client_id: 'id-1', client_secret: 'cs', refresh_token: 'rt', token_url: 'https://crm.example/oauth/token' },
      headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'k1', Accept: 'application/json' },
      streams: [{ apiKey: 'k2', path: '/deals' }],
      password: 'pw',
      webhook_url: 'https://crm.example/hook/abc',
      empty_token: '',
    };
    expect(redactSecrets(settings)).toEqual({
      auth: { type: 'oauth2', client_id: 'id-1', client_secret: '***', refresh_token: '***', token_url: 'https://crm.example/oauth/token' },
      headers: { Authorization: '***', 'X-Api-Key': '***', Accept: 'application/json' },
      streams: [{ apiKey: '***', path: '/deals' }],
      password: '***',
      webhook_url: '***',
      empty_token: '',
    });
  });

  it('returns a copy and leaves the original untouched', () => {
    const config = { tracker: { api_key: 'secret', batch_size: 500 } };
    const copy = redactSecrets(config);
    expect(copy.tracker.api_key).toBe('***');
    expect(config.tracker.api_key).toBe('secret');
  });

  it('hides credentials inside URLs wherever they appear', () => {
    expect(redactSecrets({ url: 'postgres://sync:hunter2@db:5432/sync' })).toEqual({ url: 'postgres://sync:***@db:5432/sync' });
    expect(redactSecrets('https://crm.example/api?limit=5&access_token=abc')).toBe('https://crm.example/api?limit=5&access_token=***');
    expect(redactSecrets({ base_url: 'https://acme.bitrix24.ru/rest/1/q1w2e3r4/' })).toEqual({ base_url: 'https://acme.bitrix24.ru/rest/1/***/' });
    expect(redactSecrets('https://crm.example/api/v4/leads?page=2')).toBe('https://crm.example/api/v4/leads?page=2');
  });

  it('knows which keys are secret', () => {
    for (const key of ['api_key', 'Api-key', 'token', 'access_token', 'clientSecret', 'password', 'authorization', 'webhook']) {
      expect([key, isSecretKey(key)]).toEqual([key, true]);
    }
    for (const key of ['token_url', 'keys', 'batch_size', 'project', 'id_key_field']) {
      expect([key, isSecretKey(key)]).toEqual([key, false]);
    }
  });
});
