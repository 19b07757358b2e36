import { createHash, randomBytes } from 'crypto';
import { readFileSync, readlinkSync } from 'fs';
import { hostname } from 'os';

/** Holder ids made by this process: another id with our own pid is a previous incarnation (PID 1 in a container). */
export const OWN_HOLDERS = new Set<string>();

/**
 * machine:pid:nonce. The pid lets a restarted process on the same machine see that a holder died; the
 * nonce tells apart two processes that got the same pid (PID 1 in containers).
 */
export function processHolderId(): string {
  const id = `${machineKey()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  OWN_HOLDERS.add(id);
  return id;
}

export function ownHolder(holder: string): string {
  OWN_HOLDERS.add(holder);
  return holder;
}

let cachedMachineKey: string | undefined;

/**
 * The host name plus a digest of the kernel boot id and the pid namespace: two processes share it
 * only when a pid of one is meaningful to the other. Two machines (or containers) with the same host
 * name get different keys, so the dead-pid shortcut never fires across them.
 */
export function machineKey(): string {
  if (cachedMachineKey) return cachedMachineKey;
  const bootId = readQuietly(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  const pidNamespace = readQuietly(() => readlinkSync('/proc/self/ns/pid'));
  const name = hostname().replace(/[:~]/g, '_');
  cachedMachineKey = bootId || pidNamespace ? `${name}~${createHash('sha1').update(`${bootId}|${pidNamespace}`).digest('hex').slice(0, 8)}` : name;
  return cachedMachineKey;
}

function readQuietly(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}
