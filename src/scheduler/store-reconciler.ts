import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConnectionsService, SyncService } from '../engine';

/**
 * Before anything reads connection rows (jobs, admin, CLI status): mirror the config into the store
 * and mark runs left `running` by a process that is gone as `interrupted`. Both are idempotent and
 * safe beside a live daemon (the engine checks each run's lease), so the CLI runs this too.
 */
@Injectable()
export class StoreReconciler implements OnModuleInit {
  private readonly logger = new Logger('Store');

  constructor(
    private readonly connections: ConnectionsService,
    private readonly sync: SyncService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.connections.syncFromConfig();
    const interrupted = await this.sync.recoverInterruptedRuns();
    if (interrupted.length) this.logger.log(`runs ${interrupted.join(', ')} marked interrupted; their next runs continue from the last checkpoint`);
  }
}
