import { ownHolder, processHolderId } from '../store/holder-id';
import type { MappingVersions } from './mappings/stream-mapping';

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
  /**
   * a start refused by a holder that is ending (its run ended; a process of this machine exiting), or by this
   * process's own run whose end is being recorded, tries again for this long before giving up: a killed CLI run does
   * not block the next one while it is being reaped, nor a run just ended the trigger that follows it
   */
  endingHolderWaitMs?: number;
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
    endingHolderWaitMs: options.endingHolderWaitMs ?? 5_000,
    holder: options.holder ? ownHolder(options.holder) : processHolderId(),
    workDir: options.workDir,
    mappingVersions: options.mappingVersions,
  };
}

export { OWN_HOLDERS, processHolderId, machineKey } from '../store/holder-id';
