import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { E2eSync } from './e2e-harness';

/**
 * The expenses of a sheet are days of the sheet's zone: `settings.expenses.timezone` is sent as the expense's
 * `timezone` (analytics/source/cost/add takes one; without it the service counts the days in Moscow time), a
 * row's own `timezone` column wins, and an expense the service already holds in another zone is replaced, since
 * cost/update changes the amount only. A real CSV in a temp folder, the engine, the sandbox on loopback.
 */
describe('e2e: spreadsheet expenses carry the sheet\'s time zone', () => {
  let dir: string;
  let e2e: E2eSync;
  const sandboxExpenses = async () => {
    const listed = (await e2e.tracker.channels.listExpenses()) as unknown as Record<string, unknown>[];
    return listed
      .filter((e) => String(e.from_date) < '2021-01-01')
      .map((e) => ({ source: e.source, from_date: e.from_date, to_date: e.to_date, timezone: e.timezone, marketing_cost: e.marketing_cost }))
      .sort((a, b) => String(a.source).localeCompare(String(b.source)));
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-expenses-'));
    writeFileSync(
      join(dir, 'costs.csv'),
      'channel;from_date;to_date;marketing_cost;timezone\n' +
        'google_ads;01.01.2020;31.01.2020;50000;\n' +
        'yandex_direct;01.01.2020;31.01.2020;42000;Europe/Samara\n',
    );
    writeFileSync(join(dir, 'costs-moscow.csv'), 'channel;from_date;to_date;marketing_cost\nfacebook;01.02.2020;29.02.2020;7000\n');
    e2e = await E2eSync.start({
      connectionId: 'costs', connector: 'spreadsheet',
      settings: { expenses: { path: join(dir, 'costs.csv'), timezone: 'Asia/Yekaterinburg' } },
    });
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("an expense is sent in the zone of the connection's settings; a row's own timezone wins", async () => {
    const run = await e2e.run();
    expect({ status: run.status, error: run.error, expenses: run.streams.expenses }).toEqual({
      status: 'succeeded', error: null, expenses: { read: 2, unchanged: 0, sent: 2, rejected: 0, sent_without_visit: 0 },
    });
    expect(await sandboxExpenses()).toEqual([
      { source: 'google_ads', from_date: '2020-01-01', to_date: '2020-01-31', timezone: 'Asia/Yekaterinburg', marketing_cost: 50000 },
      { source: 'yandex_direct', from_date: '2020-01-01', to_date: '2020-01-31', timezone: 'Europe/Samara', marketing_cost: 42000 },
    ]);
  });

  it('without a zone in the settings nothing is sent (the service keeps its Moscow days); once the settings give one, the expense is replaced in that zone, not added twice', async () => {
    e2e.options.settings = { expenses: { path: join(dir, 'costs-moscow.csv') } };
    expect((await e2e.run()).status).toBe('succeeded');
    const feb = async () => (await sandboxExpenses()).filter((e) => e.source === 'facebook');
    expect(await feb()).toEqual([{ source: 'facebook', from_date: '2020-02-01', to_date: '2020-02-29', timezone: 'Europe/Moscow', marketing_cost: 7000 }]);
    e2e.options.settings = { expenses: { path: join(dir, 'costs-moscow.csv'), timezone: 'Asia/Yekaterinburg' } };
    const run = await e2e.run();
    expect({ status: run.status, sent: run.streams.expenses?.sent }).toEqual({ status: 'succeeded', sent: 1 });
    expect(await feb()).toEqual([{ source: 'facebook', from_date: '2020-02-01', to_date: '2020-02-29', timezone: 'Asia/Yekaterinburg', marketing_cost: 7000 }]);
    expect(e2e.log()).toMatch(/expense facebook 2020-02-01\.\.2020-02-29: the service holds it in "Europe\/Moscow", not Asia\/Yekaterinburg/);
  });
});
