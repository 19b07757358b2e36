import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { readDotenv, writeDotenv } from '../../src/config/dotenv-file';
import { prepareBoot } from '../../src/bootstrap';

describe('<data_dir>/.env', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
    file = join(dir, 'config.yaml');
    writeFileSync(file, `data_dir: ${join(dir, 'data')}\ntracker:\n  base_url: https://api.example.com\n  api_key: \${SERVICE_KEY}\n  project: "7"\n`);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers ${NAME} references; the environment wins over it', () => {
    writeDotenv(join(dir, 'data'), { SERVICE_KEY: 'from-file' });
    expect(loadConfig({ file, env: {} }).tracker.api_key).toBe('from-file');
    expect(loadConfig({ file, env: { SERVICE_KEY: 'from-env' } }).tracker.api_key).toBe('from-env');
  });

  it('is found under DATA_DIR when the environment names the data folder', () => {
    writeDotenv(join(dir, 'elsewhere'), { SERVICE_KEY: 'elsewhere' });
    expect(loadConfig({ file, env: { DATA_DIR: join(dir, 'elsewhere') } }).tracker.api_key).toBe('elsewhere');
  });

  it('is written readable by its owner only, keeping the other variables and quotes in values', () => {
    const data = join(dir, 'data');
    writeDotenv(data, { A: 'one', B: "it's # not a comment" });
    writeDotenv(data, { A: 'two' });
    expect(statSync(join(data, '.env')).mode & 0o777).toBe(0o600);
    expect(statSync(data).mode & 0o777).toBe(0o700); // the data folder it made
    expect(readDotenv(data)).toEqual({ A: 'two', B: "it's # not a comment" });
    expect(readFileSync(join(data, '.env'), 'utf8')).toContain("A='two'");
  });

  it('a start whose environment hides a value of the file warns, naming the variable and the value used, never the values', async () => {
    writeDotenv(join(dir, 'data'), { SERVICE_KEY: 'key-rotated-into-the-file', OTHER: 'same' });
    const lines: string[] = [];
    const env = { SERVICE_KEY: 'key-of-the-environment', OTHER: 'same', LOG_FORMAT: 'json' };
    const boot = await prepareBoot({ argv: ['node', 'main.js', '--config', file], env, logDestination: { write: (line) => lines.push(line) } });
    expect(boot.config.tracker.api_key).toBe('key-of-the-environment');
    const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level === 40).map((line) => line.msg);
    expect(warnings).toEqual([`SERVICE_KEY is set both in the environment and in ${join(dir, 'data', '.env')}, to different values: the environment's is used and the file's ignored (the environment wins; unset SERVICE_KEY in the daemon's environment to use the file's)`]);
    expect(lines.join('')).not.toMatch(/key-rotated|key-of-the/);
  });
});
