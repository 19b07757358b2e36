import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { readDotenv, writeDotenv } from '../../src/config/dotenv-file';

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
    expect(readDotenv(data)).toEqual({ A: 'two', B: "it's # not a comment" });
    expect(readFileSync(join(data, '.env'), 'utf8')).toContain("A='two'");
  });
});
