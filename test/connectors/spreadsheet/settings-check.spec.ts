import { join } from 'path';
import spreadsheetConnector, { spreadsheetConnector as named } from '../../../connectors/spreadsheet';
import { isConnectorDefinition } from '../../../src/connectors/connector-definition';
import { settingsProblems } from '../../../src/connectors/settings-validation';
import { FIXTURES, tempDir } from './read-helper';

const context = { connectionId: 't', settings: {}, logger: { log: () => undefined, warn: () => undefined } };

describe('spreadsheet connector: definition, settings, check and discover', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('exports one definition named spreadsheet, default and named', () => {
    expect(spreadsheetConnector).toBe(named);
    expect(isConnectorDefinition(spreadsheetConnector)).toBe(true);
    expect(spreadsheetConnector.name).toBe('spreadsheet');
  });

  it('accepts complete settings', () => {
    const settings = {
      deals: {
        path: 'deals.csv', format: 'csv', header_row: 2, delimiter: ';', encoding: 'windows-1251', timezone: 'Asia/Yekaterinburg',
        date_format: 'DD.MM.YYYY', columns: { id: 'Номер', created_at: 'C' }, status_map: { Оплачено: '1', '*': '0' }, decimal_mark: ',',
      },
      leads: { path: 'leads.csv', decimal_mark: '.' },
      clients: { path: 'https://docs.example.com/pub?output=csv' },
      expenses: { path: 'costs.xlsx', sheet: 2, incremental: false },
    };
    expect(settingsProblems(spreadsheetConnector.settingsClass, settings, 'connections[0].settings')).toEqual([]);
  });

  it('names unknown keys and wrong values with their config path', () => {
    const problems = settingsProblems(
      spreadsheetConnector.settingsClass,
      {
        deals: { path: 'd.csv', header_row: 0, delimiter: '|', timezone: 'Mars/Olympus', colums: {}, columns: { id: 5 }, decimal_mark: ' ' },
        orders: { path: 'x.csv' },
        clients: { sheet: 0 },
      },
      'connections[1].settings',
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'connections[1].settings.orders: unknown key',
        'connections[1].settings.deals.colums: unknown key (did you mean "columns"?)',
        expect.stringMatching(/^connections\[1\]\.settings\.deals\.header_row: /),
        expect.stringMatching(/^connections\[1\]\.settings\.deals\.delimiter: /),
        expect.stringMatching(/^connections\[1\]\.settings\.deals\.decimal_mark: /),
        'connections[1].settings.deals.timezone: "Mars/Olympus" is not an IANA time zone (e.g. "Europe/Moscow")',
        'connections[1].settings.deals.columns: must be a mapping of names to non-empty strings',
        expect.stringMatching(/^connections\[1\]\.settings\.clients\.path: /),
        'connections[1].settings.clients.sheet: must be a sheet name or a 1-based sheet number',
      ]),
    );
  });

  it('check() passes readable files with an id column and fails a sheet without one', async () => {
    const noId = tmp.write('noid.csv', 'name,created_at\nx,2025-01-01\n');
    const ok = await spreadsheetConnector.check({ clients: { path: join(FIXTURES, 'clients-bom-crlf.csv') } }, context);
    expect(ok).toEqual({ ok: true, message: 'clients: clients-bom-crlf.csv readable (csv, 7 columns)' });
    const bad = await spreadsheetConnector.check({ deals: { path: noId }, managers: { path: 'missing.tsv' } }, context);
    expect(bad.ok).toBe(false);
    expect(bad.message).toContain('deals: noid.csv: no id column for deals (header: "name", "created_at")');
    expect(bad.message).toMatch(/^managers: file missing.tsv does not exist/);
    expect(await spreadsheetConnector.check({}, context)).toEqual({ ok: false, message: expect.stringMatching(/no stream configured/) });
  });

  it('startupWarnings() names each local file that does not exist, and where a relative path was looked for; URLs are not fetched', () => {
    const present = join(FIXTURES, 'managers.tsv');
    const warnings = spreadsheetConnector.startupWarnings!({
      managers: { path: present },
      clients: { path: 'https://docs.example.com/pub?output=csv' },
      deals: { path: 'data/no-such-deals.csv' },
      expenses: { path: join(tmp.dir, 'costs.xlsx') },
    });
    expect(warnings).toEqual([
      `settings.deals.path: file data/no-such-deals.csv does not exist (looked at ${join(process.cwd(), 'data/no-such-deals.csv')}); the deals stream fails until it does`,
      `settings.expenses.path: file ${join(tmp.dir, 'costs.xlsx')} does not exist; the expenses stream fails until it does`,
    ]);
  });

  it('discover() lists each header with the field it feeds and an example value', async () => {
    const fields = await spreadsheetConnector.discover!({ managers: { path: join(FIXTURES, 'managers.tsv') } }, context);
    expect(fields).toEqual([
      { stream: 'managers', name: 'id', type: 'id', example: 'M1' },
      { stream: 'managers', name: 'name', type: 'name', example: 'Ольга' },
      { stream: 'managers', name: 'phone', type: 'phone', example: '+7 495 000-00-00' },
      { stream: 'managers', name: 'email', type: 'email', example: 'olga@example.com' },
    ]);
  });
});
