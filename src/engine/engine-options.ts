import { hostname } from 'os';
import { randomBytes } from 'crypto';

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
  /** identity of this process in leases and runs (default host:pid:nonce) */
  holder?: string;
  /** folder for connectors' own files (ReadContext.workDir), default <data_dir>/connectors */
  workDir?: string;
}

export const ENGINE_OPTIONS = 'ENGINE_OPTIONS';

export type ResolvedEngineOptions = Required<Omit<EngineOptions, 'workDir'>> & { workDir?: string };

export function resolveEngineOptions(options: EngineOptions = {}): ResolvedEngineOptions {
  return {
    leaseTtlMs: options.leaseTtlMs ?? 60_000,
    leaseRenewMs: options.leaseRenewMs ?? 10_000,
    progressIntervalMs: options.progressIntervalMs ?? 1_000,
    idleCheckpointMs: options.idleCheckpointMs ?? 5_000,
    holder: options.holder ? ownHolder(options.holder) : processHolderId(),
    workDir: options.workDir,
  };
}

/** Holder ids made by this process: another id with our own pid is a previous incarnation (PID 1 in a container). */
export const OWN_HOLDERS = new Set<string>();

/** host:pid:nonce. The pid lets a restarted process on the same host see that a holder died. */
export function processHolderId(): string {
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  OWN_HOLDERS.add(id);
  return id;
}

function ownHolder(holder: string): string {
  OWN_HOLDERS.add(holder);
  return holder;
}
