import { join } from 'path';
import { ConfigError, loadConfig } from '../../src/config';
import { builtInRegistry } from '../faults/support/sheet-sync';
import { CONFIGS } from './support/corpus';

interface ConfigCase {
  file: string;
  /** every problem expected, each naming the key path (one line of the message each) */
  problems: RegExp[];
}

/**
 * Bad configuration files: loading throws a ConfigError that names the file and lists every problem with
 * its key path, so the daemon and the CLI print it and exit instead of running on a wrong config.
 * Connector settings are validated at load time too (the daemon passes its registry's validator).
 */
const CASES: ConfigCase[] = [
  {
    file: 'wrong-types.yaml',
    problems: [
      /^server\.port: "eighty" must be an integer/, /^tracker\.batch_size: "lots" must be an integer/,
      /^tracker\.retries: \[1,2\] must be an integer/, /^connections\[0\]\.paused: "maybe" must be true or false/,
    ],
  },
  {
    file: 'unknown-keys.yaml',
    problems: [/^conections: unknown key \(did you mean "connections"\?\)/, /^tracker\.apikey: unknown key \(did you mean "api_key"\?\)/, /^connections\[0\]\.shedule: unknown key/],
  },
  { file: 'bad-cron.yaml', problems: [/^connections\[0\]\.schedule: "61 \* \* \* \*" is not a cron expression/] },
  { file: 'missing-api-key.yaml', problems: [/^tracker\.api_key: \$\{TRACKER_API_KEY_NOT_SET\} is not set \(environment variable TRACKER_API_KEY_NOT_SET\)$/] },
  { file: 'missing-project.yaml', problems: [/^tracker\.project: is required when tracker\.base_url is set/] },
  // the preset authenticates with a bearer token: a connection without one cannot work, say so before the first run
  { file: 'missing-crm-token.yaml', problems: [/^connections\[0\]\.settings\.token: \$\{AMOCRM_TOKEN_NOT_SET\} is not set \(environment variable AMOCRM_TOKEN_NOT_SET\)$/] },
  { file: 'broken-yaml.yaml', problems: [/^line \d+, column \d+: /] },
  { file: 'duplicate-connection-ids.yaml', problems: [/^connections\[1\]\.id: "sheet" is already the id of connections\[0\]/] },
  { file: 'unknown-connector.yaml', problems: [/^connections\[0\]\.connector: "spreadshit" is not a known connector/] },
  {
    file: 'bad-connector-settings.yaml',
    problems: [/^connections\[0\]\.settings\.deals\.header_rwo: unknown key \(did you mean "header_row"\?\)$/, /^connections\[0\]\.settings\.deals\.path: /, /^connections\[0\]\.settings\.deals\.delimiter: /],
  },
  {
    file: 'out-of-range.yaml',
    problems: [
      /^tracker\.batch_size: 20000 must be an integer between 1 and 10000/, /^tracker\.concurrency: 0 must be/,
      /^sandbox\.faults: 1\.5 must be a number between 0 and 1/, /^connections\[0\]\.id: "bad id!" must start with a letter or digit/,
    ],
  },
];

describe('bad-input corpus: configuration files', () => {
  const registry = builtInRegistry();

  it.each(CASES.map((c) => [c.file, c] as const))('%s: ConfigError naming the file and every problem with its key path', (_file, c) => {
    const path = join(CONFIGS, c.file);
    let error: unknown = null;
    try {
      loadConfig({ file: path, env: {}, settingsValidator: registry.validateSettings });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const configError = error as ConfigError;
    expect(configError.file).toBe(path);
    expect(configError.message.split('\n')[0]).toContain(path);
    expect(configError.problems).toHaveLength(c.problems.length);
    for (const problem of c.problems) expect(configError.problems).toContainEqual(expect.stringMatching(problem));
  });
});
