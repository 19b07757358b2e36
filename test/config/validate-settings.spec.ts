import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { loadConfig } from '../../src/config/load-config';
import { validateSettings } from '../../src/config/validate-settings';
import { ConfigFiles, configErrorOf } from './config-files';

class SheetSettings {
  @IsString() path: string;
  @IsOptional() @IsIn(['utf-8', 'windows-1251']) encoding?: string;
}

class SpreadsheetSettings {
  @IsDefined() @ValidateNested() @Type(() => SheetSettings) deals: SheetSettings;
  @IsOptional() @IsString() api_token?: string;
}

const files = new ConfigFiles();
afterAll(() => files.remove());

describe('validateSettings (for connector settings classes)', () => {
  it('returns the instance when the settings are valid', () => {
    const check = validateSettings(SpreadsheetSettings, { deals: { path: 'd.csv' } }, 'connections[0].settings');
    expect(check.problems).toEqual([]);
    expect(check.value.deals).toBeInstanceOf(SheetSettings);
  });

  it('words problems like the rest of the config: path, value, rule; unknown keys; secrets hidden', () => {
    const settings = { deals: { path: 5, encodnig: 'cp1251' }, api_token: 12345, extra: true };
    const { problems } = validateSettings(SpreadsheetSettings, settings, 'connections[2].settings');
    expect([...problems].sort()).toEqual([
      'connections[2].settings.api_token: "***" must be a string',
      'connections[2].settings.deals.encodnig: unknown key (did you mean "encoding"?)',
      'connections[2].settings.deals.path: 5 must be a string',
      'connections[2].settings.extra: unknown key',
    ]);
    expect(validateSettings(SpreadsheetSettings, {}, 'connections[0].settings').problems).toEqual([
      'connections[0].settings.deals: is required',
    ]);
  });

  it('plugs into loadConfig as the settings validator, and a throwing validator is reported, not fatal', () => {
    const file = files.write(`
connections:
  - { id: a, connector: spreadsheet, settings: { deals: { path: 7 } } }
  - { id: b, connector: broken }
  - { id: c, connector: spreadsheet, schedule: "* *" }
`);
    const error = configErrorOf(() =>
      loadConfig({
        file,
        env: {},
        settingsValidator: (connector, settings, path) => {
          if (connector === 'broken') throw new Error('plugin exploded');
          return validateSettings(SpreadsheetSettings, settings, path).problems;
        },
      }),
    );
    expect(error.problems).toEqual([
      expect.stringMatching(/^connections\[2\]\.schedule: "\* \*" is not a cron expression/),
      'connections[0].settings.deals.path: 7 must be a string',
      'connections[1].settings: connector "broken" failed to check its settings: plugin exploded',
      'connections[2].settings.deals: is required',
    ]);
  });
});
