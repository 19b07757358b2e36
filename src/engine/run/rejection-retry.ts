import { Injectable } from '@nestjs/common';
import type { StreamName } from '../../connectors/canonical';
import { RejectedRecordStore } from '../../store/repositories/rejected-record.store';
import { RunStore } from '../../store/repositories/run.store';
import { InvalidRunOptionsError, UnknownRunError } from '../engine-errors';

/** What SyncService.retryRejected re-sends: a run's unresolved rejected records that have an id, per stream. */
@Injectable()
export class RejectionRetry {
  constructor(
    private readonly runs: RunStore,
    private readonly rejected: RejectedRecordStore,
  ) {}

  async idsOf(runId: number): Promise<{ connectionId: string; onlyIds: Map<StreamName, Set<string>> }> {
    const run = await this.runs.get(runId);
    if (!run) throw new UnknownRunError(runId);
    if (run.direction === 'outbound') {
      const pass = run.flow === 'write_back' ? 'write-back pass' : `${run.flow} pass`;
      throw new InvalidRunOptionsError(`run ${runId} is a ${run.flow === 'write_back' ? 'write-back' : `${run.flow} run`}: what the CRM refused is written again by the next ${pass} (POST /api/connections/${run.connection_id}/flows/${run.flow})`);
    }
    const onlyIds = new Map<StreamName, Set<string>>();
    for (const row of await this.rejected.unresolvedOf(runId)) {
      if (!row.external_id) continue;
      const ids = onlyIds.get(row.stream as StreamName) ?? new Set<string>();
      ids.add(row.external_id);
      onlyIds.set(row.stream as StreamName, ids);
    }
    if (onlyIds.size === 0) throw new InvalidRunOptionsError(`run ${runId} has no unresolved rejected records with an id to retry`);
    return { connectionId: run.connection_id, onlyIds };
  }
}
