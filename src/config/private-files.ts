/**
 * The files the daemon keeps in data_dir hold record payloads (the SQLite store, the sandbox's database), rotated
 * CRM tokens (the store's connector secrets) and secrets (admin-token, sandbox-api-key, .env): readable by their
 * owner only, as SSH keeps its keys, whatever the process's umask.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** What the daemon keeps in data_dir: a folder holding nothing else is the daemon's alone. */
const OWN_ENTRY = /^(?:(?:tracker-sync|sandbox)\.sqlite(?:-wal|-shm|-journal|\.open-lock)?|admin-token|sandbox-api-key|\.env|connectors)$/;

export interface PrivacyLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Creates `dir` (and missing parents) owner-only; a folder that exists is left as it is. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates `file` empty and owner-only unless it exists, before anything else opens it: SQLite would create a
 * database 0644, and it gives the -wal and -shm files beside it the database's mode.
 */
export function createPrivateFile(file: string): void {
  if (file === ':memory:' || file === '') return;
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
}

/** The SQLite database and the files SQLite keeps beside it while it is open. */
export function sqliteFiles(database: string): string[] {
  return [database, `${database}-wal`, `${database}-shm`, `${database}-journal`];
}

/**
 * At start, for an installation from before as for a new one: data_dir is created 0700; one that exists with
 * access for others is made 0700 when it holds nothing but the daemon's files, else (a folder shared on purpose)
 * left as it is with a warning. Each of `files` readable by others is made 0600. What is tightened is logged, so
 * once; what cannot be (another owner) is a warning and stays as it is.
 */
export function keepDataDirPrivate(dataDir: string, files: string[], log: PrivacyLog): void {
  if (!existsSync(dataDir)) return makePrivateDir(dataDir);
  const dirMode = statSync(dataDir).mode & 0o777;
  if (dirMode & 0o077) {
    const others = readdirSync(dataDir).filter((entry) => !OWN_ENTRY.test(entry));
    if (others.length === 0) tighten(dataDir, dirMode, PRIVATE_DIR_MODE, log);
    else log.warn(`data_dir ${dataDir} may be read by other users (mode ${octal(dirMode)}) and holds more than the daemon's files (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}), so it is left as it is; its files are kept 0600`);
  }
  for (const file of files) {
    const mode = modeOf(file);
    if (mode !== null && mode & 0o077) tighten(file, mode, PRIVATE_FILE_MODE, log);
  }
}

function tighten(path: string, mode: number, to: number, log: PrivacyLog): void {
  try {
    chmodSync(path, to);
    log.info(`${path} could be read by other users (mode ${octal(mode)}): now ${octal(to)}, its owner's only`);
  } catch (error) {
    log.warn(`${path} may be read by other users (mode ${octal(mode)}) and could not be made ${octal(to)}: ${(error as Error).message}`);
  }
}

function modeOf(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null; // not there (yet): it is created owner-only
  }
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
