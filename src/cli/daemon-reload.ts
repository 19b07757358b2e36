import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { TrackerSyncConfig } from '../config';
import { readTokenFile } from '../config/admin-token-file';
import { StoreRepositories } from '../store/store-repositories';
import type { CliContext } from './cli-context';
import type { CliOutput } from './output/cli-output';

/** The daemon's heartbeat is every 5 s; a row this old belongs to a daemon that is gone. */
const RECENT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 5_000;

export const RESTART_HINT = 'restart the daemon or send it SIGHUP to take the new config';

/**
 * After a command wrote the config file: a running daemon of this config is asked to read it again, first
 * through its admin API (the address and token this config gives; it answers which file it read), else by SIGHUP
 * to a daemon of the same store on this host (its row in the store's `daemon` table: pid, heartbeat). The row
 * does not say which file that daemon runs, and SIGHUP makes it read its own: the message says so instead of
 * claiming it reads the file just written. When no daemon could be reached, that one must be restarted or sent SIGHUP.
 */
export async function askDaemonToReload(ctx: CliContext, file: string, env: NodeJS.ProcessEnv, out: CliOutput): Promise<void> {
  const viaApi = await reloadThroughAdminApi(ctx.config, file, env, out);
  if (viaApi) return;
  const signalled = await signalLocalDaemons(ctx);
  if (signalled.length > 0) {
    // the store's daemon row records no config file: a daemon of this store may run another file than the one written
    out.line(
      `sent SIGHUP to the running daemon of this store (pid ${signalled.join(', ')}): it reads its own config file again, ` +
        `which may not be ${file}; if it runs another file, restart it with --config ${file}`,
    );
    return;
  }
  out.line(`no running daemon was reached: ${RESTART_HINT}`);
}

/** True when a daemon answered (reloaded, or refused the file with its problems). */
async function reloadThroughAdminApi(config: TrackerSyncConfig, file: string, env: NodeJS.ProcessEnv, out: CliOutput): Promise<boolean> {
  const token = env.ADMIN_TOKEN?.trim() || config.admin?.token?.trim() || readTokenFile(config.data_dir);
  if (!token) return false;
  const url = `${adminUrl(config)}/api/config/reload`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch {
    return false; // nobody listens there (or not in time): try the store's daemons
  }
  const body = (await res.json().catch(() => ({}))) as {
    file?: string; added?: string[]; changed?: string[]; removed?: string[]; moved?: { connection: string; from: string; to: string }[]; restart_required?: string[]; problems?: string[];
  };
  if (res.status === 200 && body.file === resolve(file)) {
    const changes = (['added', 'changed', 'removed'] as const).map((k) => `${k}: ${(body[k] ?? []).join(', ') || 'none'}`).join('; ');
    out.line(`the running daemon at ${adminUrl(config)} reloaded the config (connections ${changes})`);
    for (const move of body.moved ?? []) out.line(`${move.connection} moved from project ${move.from} to project ${move.to}: what it made in ${move.from} stays ${move.from}'s`);
    // e.g. init wrote the tracker: section: the daemon keeps its service until it restarts
    const later = body.restart_required ?? [];
    if (later.length > 0) out.line(`${later.join(', ')} changed too: restart the daemon for ${later.length > 1 ? 'them' : 'it'} to take effect`);
    return true;
  }
  if (res.status === 400 && body.problems) {
    out.error(`the running daemon at ${adminUrl(config)} refused the new config and keeps the old one:`);
    for (const problem of body.problems) out.error(`  ${problem}`);
    return true;
  }
  // another daemon on that port (another file), a wrong token, an older daemon without the route
  return false;
}

/** SIGHUP to each daemon of this store that runs on this host and is alive; their pids. */
async function signalLocalDaemons(ctx: CliContext): Promise<number[]> {
  const rows = await ctx.app.get(StoreRepositories).daemons.recent(new Date(Date.now() - RECENT_MS).toISOString());
  const signalled: number[] = [];
  for (const row of rows) {
    if (row.host !== hostname() || row.pid === process.pid) continue;
    try {
      process.kill(row.pid, 'SIGHUP');
      signalled.push(row.pid);
    } catch {
      // gone since its last heartbeat, or not ours to signal
    }
  }
  return signalled;
}

function adminUrl(config: TrackerSyncConfig): string {
  const configured = config.server.host;
  const host = ['0.0.0.0', '::', ''].includes(configured) ? '127.0.0.1' : configured;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.server.port}`;
}
