/**
 * `<data_dir>/.env`: secrets `init` stored for the config's `${NAME}` references (mode 0600, never in the YAML).
 * Read under the environment: a variable set in the environment wins over the file.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { parse } from 'dotenv';
import { isMapping } from './config-validators';
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files';

export const DOTENV_FILE = '.env';

/** The folder the config's data_dir names (env DATA_DIR first), before validation: where `.env` lives. */
export function dataDirOf(raw: unknown, env: NodeJS.ProcessEnv): string {
  const written = isMapping(raw) && typeof raw.data_dir === 'string' && !raw.data_dir.includes('${') ? raw.data_dir : undefined;
  return env.DATA_DIR || written || './data';
}

export function readDotenv(dataDir: string): Record<string, string> {
  const file = join(dataDir, DOTENV_FILE);
  if (!existsSync(file)) return {};
  return parse(readFileSync(file));
}

/** The variables the environment and `<dataDir>/.env` both set, to different values: the environment's are used. */
export interface ShadowedVariables {
  file: string;
  /** name → the two values (kept in memory only, to say each conflict once; never logged) */
  variables: Map<string, { environment: string; file: string }>;
}

export function shadowedByEnvironment(env: NodeJS.ProcessEnv, dataDir: string): ShadowedVariables {
  const variables = new Map<string, { environment: string; file: string }>();
  for (const [name, value] of Object.entries(readDotenv(dataDir))) {
    const set = env[name];
    if (set !== undefined && set !== value) variables.set(name, { environment: set, file: value });
  }
  return { file: join(dataDir, DOTENV_FILE), variables };
}

/** The environment with the file's variables under it. */
export function withDotenv(env: NodeJS.ProcessEnv, dataDir: string): NodeJS.ProcessEnv {
  const file = readDotenv(dataDir);
  if (Object.keys(file).length === 0) return env;
  const merged: NodeJS.ProcessEnv = { ...file };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}

/** Sets variables in `<dataDir>/.env`, keeping the others; the file is readable by its owner only. */
export function writeDotenv(dataDir: string, values: Record<string, string>): string {
  const file = join(dataDir, DOTENV_FILE);
  makePrivateDir(dirname(file));
  const all = { ...readDotenv(dataDir), ...values };
  const lines = Object.entries(all).map(([key, value]) => `${key}=${quote(value)}`);
  writeFileSync(file, `# secrets of the config's \${NAME} references (written by init; keep this file private)\n${lines.join('\n')}\n`, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
  return file;
}

/** Single quotes keep everything literal in dotenv; a value with one inside goes in double quotes. */
function quote(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error('a secret cannot span lines');
  return value.includes("'") ? `"${value}"` : `'${value}'`;
}
