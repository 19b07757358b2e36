/** Runs `main` in a child process, as `npm start` does (compiled when fresh: see support/node-entry). */
import { Proc, spawnEntry } from '../support/spawn-entry';

export type DaemonChild = Proc;

export function spawnDaemon(args: string[], env: Record<string, string>): DaemonChild {
  return spawnEntry('the daemon', 'main', args, { PORT: '0', ...env });
}
