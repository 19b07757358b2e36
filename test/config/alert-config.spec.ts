import { ConfigError, durationMs, validateConfig } from '../../src/config';

const connections = [{ id: 'crm', connector: 'memory' }];

function problems(alerts: unknown[]): string[] {
  try {
    validateConfig({ connections, alerts });
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n').slice(1).map((l) => l.trim());
    throw error;
  }
  return [];
}

describe('config: alerts', () => {
  it('fills the defaults: every connection, every event, the thresholds and a daily reminder', () => {
    const config = validateConfig({ connections, alerts: [{ id: 'ops', type: 'Webhook', url: 'https://hooks.example.com/x' }] });
    expect(config.alerts[0]).toMatchObject({
      id: 'ops', type: 'webhook', connections: ['*'], no_success_for: '24h', repeat: '24h',
      without_visit_share: 0.5, rejected_share: 0.05, skipped_share: 0.2,
      events: ['run_failed', 'recovered', 'no_success_for', 'without_visit_share', 'rejected_share', 'skipped_share'],
    });
  });

  it('reads strings from the environment: shares, a single recipient, a numeric chat id', () => {
    const config = validateConfig(
      { connections, alerts: [{ id: 'tg', type: 'telegram', bot_token: '${BOT}', chat_id: 12345, rejected_share: '${SHARE}' }, { id: 'mail', type: 'email', url: 'smtp://u:p@mail:587', from: 'a@b', to: 'ops@b' }] },
      { env: { BOT: '123:abc', SHARE: '0.1' } },
    );
    expect(config.alerts[0]).toMatchObject({ bot_token: '123:abc', chat_id: '12345', rejected_share: 0.1 });
    expect(config.alerts[1].to).toEqual(['ops@b']);
  });

  it('names each problem by its path', () => {
    expect(problems([
      { id: 'ops', type: 'pager', repeat: 'soon', rejected_share: 2 },
      { id: 'ops', type: 'telegram', connections: ['nope'], events: ['run_failed', 'exploded'] },
      { id: 'm', type: 'email', url: 'https://mail' },
      { id: 'w', type: 'webhook' },
    ])).toEqual(expect.arrayContaining([
      expect.stringMatching(/^alerts\[0\]\.type: "pager" must be one of "webhook", "slack", "telegram", "email"/),
      'alerts[0].repeat: "soon" must be a duration such as 90s, 15m, 6h or 2d',
      'alerts[0].rejected_share: 2 must be a number between 0 and 1',
      'alerts[1].id: "ops" is already the id of alerts[0]',
      'alerts[1].bot_token: is required for type telegram',
      'alerts[1].chat_id: is required for type telegram',
      'alerts[1].connections[0]: "nope" is not the id of a connection (or "*" for all)',
      expect.stringMatching(/^alerts\[1\]\.events\[1\]: "exploded" must be one of "run_failed"/),
      'alerts[2].url: must be an smtp:// or smtps:// URL for type email',
      'alerts[2].from: is required for type email',
      'alerts[2].to: is required for type email',
      'alerts[3].url: is required for type webhook',
    ]));
  });

  it('reads durations in ms, s, m, h and d', () => {
    expect([durationMs('250ms'), durationMs('2s'), durationMs('15m'), durationMs('6h'), durationMs('1.5d')]).toEqual([250, 2000, 900_000, 21_600_000, 129_600_000]);
    expect(() => durationMs('6 hours')).toThrow('not a duration');
  });
});
