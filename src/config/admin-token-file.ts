import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files';

export const ADMIN_TOKEN_FILE = 'admin-token';

export interface StoredToken {
  token: string;
  /** true when this call generated and wrote the file (the first start) */
  created: boolean;
}

/**
 * Reads `<dataDir>/admin-token`, or creates it with a fresh random token (mode 0600).
 * The exclusive create ('wx') means two processes starting together agree on one token,
 * and only the one that wrote it reports `created`.
 */
export function readOrCreateTokenFile(dataDir: string): StoredToken {
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  const existing = readToken(path);
  if (existing) return { token: existing, created: false };
  makePrivateDir(dataDir);
  const token = randomBytes(32).toString('base64url');
  try {
    writeFileSync(path, `${token}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    return { token, created: true };
  } catch (error) {
    const raced = (error as NodeJS.ErrnoException).code === 'EEXIST' ? readToken(path) : null;
    if (raced) return { token: raced, created: false };
    throw new Error(`cannot write the admin token file ${path}: ${(error as Error).message}`);
  }
}

/** The token a daemon generated under `dataDir`, or null (the CLI reads it to ask a running daemon to reload). */
export function readTokenFile(dataDir: string): string | null {
  return readToken(join(dataDir, ADMIN_TOKEN_FILE));
}

function readToken(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
