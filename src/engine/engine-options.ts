import { createHash, randomBytes } from 'crypto';
import { readFileSync, readlinkSync } from 'fs';
import { hostname } from 'os';
import type { MappingVersions } from './stream-handlers';

/** Tunables of the engine (token ENGINE_OPTIONS); the defaults suit the daemon. */
export interface EngineOptions {
  /** how long a lease lasts without renewal */
  leaseTtlMs?: number;
  /** how often a running run renews its lease */
  leaseRenewMs?: number;
  /** at most one 'progress' event per stream this often (plus one per page boundary) */
  progressIntervalMs?: number;
  /** write the cursor of a stream that sends nothing at most this often */
  idleCheckpointMs?: number;
  /**
   * scheduled runs wait a random 0..this many ms (plus 20 ms per run this process has going, at most 1 s)
   * before taking the lease, so daemons sharing a store split a tick's connections instead of the
   * quickest daemon taking them all
   */
  scheduleJitterMs?: number;
  /** a holder whose daemon row (heartbeat) is older than this is dead: its lease is taken over before expiry */
  deadDaemonAfterMs?: number;
  /** identity of this process in leases, runs and the daemon table (default machine:pid:nonce) */
  holder?: string;
  /** folder for connectors' own files (ReadContext.workDir), default <data_dir>/connectors */
  workDir?: string;
  /**
   * per stream, a mapping version in place of the handler's (mapping/*.ts): what a release that bumps one
   * does to a store, e.g. in tests
   */
  mappingVersions?: MappingVersions;
}

export const ENGINE_OPTIONS = 'ENGINE_OPTIONS';

export type ResolvedEngineOptions = Required<Omit<EngineOptions, 'workDir' | 'mappingVersions'>> & Pick<EngineOptions, 'workDir' | 'mappingVersions'>;

export function resolveEngineOptions(options: EngineOptions = {}): ResolvedEngineOptions {
  return {
    leaseTtlMs: options.leaseTtlMs ?? 60_000,
    leaseRenewMs: options.leaseRenewMs ?? 10_000,
    progressIntervalMs: options.progressIntervalMs ?? 1_000,
    idleCheckpointMs: options.idleCheckpointMs ?? 5_000,
    deadDaemonAfterMs: options.deadDaemonAfterMs ?? 30_000,
    scheduleJitterMs: options.scheduleJitterMs ?? 200,
    holder: options.holder ? ownHolder(options.holder) : processHolderId(),
    workDir: options.workDir,
    mappingVersions: options.mappingVersions,
  };
}

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

function ownHolder(holder: string): string {
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
