import { readFileSync } from 'fs';
import { machineKey, OWN_HOLDERS } from './holder-id';

/**
 * What this machine can tell of a holder (machine:pid:nonce, holder-id.ts) from its pid:
 * `gone` (no such process, or a zombie: it has exited and only waits to be reaped), `ending` (it is exiting
 * or a SIGKILL is pending: gone in a moment), `alive`, or `unknown` (another machine, no pid).
 */
export type LocalProcessState = 'gone' | 'ending' | 'alive' | 'unknown';

/** PF_EXITING in the flags of /proc/<pid>/stat: the kernel is tearing the process down. */
const PF_EXITING = 0x4;
/** SIGKILL (9) in the pending-signal masks of /proc/<pid>/status. */
const SIGKILL_BIT = 1n << 8n;

export function localProcessState(holder: string | null | undefined): LocalProcessState {
  if (!holder) return 'unknown';
  const [machine, pidText] = holder.split(':');
  const pid = Number(pidText);
  if (machine !== machineKey() || !Number.isInteger(pid) || pid <= 0) return 'unknown';
  // our own pid: alive if this process made the id, else a previous incarnation (e.g. PID 1 in a restarted container)
  if (pid === process.pid) return OWN_HOLDERS.has(holder) ? 'alive' : 'gone';
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'alive';
  }
  return procState(pid);
}

/** From /proc (Linux); where it cannot be read, a process that answers signal 0 is alive. */
function procState(pid: number): LocalProcessState {
  const stat = readQuietly(`/proc/${pid}/stat`);
  if (!stat) return 'alive';
  // "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": comm may hold spaces and parentheses
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, flags] = [fields[0], Number(fields[6])];
  if (state === 'Z' || state === 'X' || state === 'x') return 'gone';
  if (Number.isFinite(flags) && flags & PF_EXITING) return 'ending';
  return sigkillPending(pid) ? 'ending' : 'alive';
}

function sigkillPending(pid: number): boolean {
  const status = readQuietly(`/proc/${pid}/status`);
  return [...status.matchAll(/^(?:ShdPnd|SigPnd):\s*([0-9a-f]+)$/gim)].some((m) => (BigInt(`0x${m[1]}`) & SIGKILL_BIT) !== 0n);
}

function readQuietly(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
