import { Injectable } from '@nestjs/common';
import { TrackerSyncConfig } from '../config';
import { projectNameOf } from '../config/project-targets';
import { ProjectScope } from '../application/project-scope';
import { UnknownConnectionError } from '../engine';
import { RunsQueryService } from '../application/runs/runs-query.service';
import { ResyncEstimateResponse, StreamEstimate } from './resync-estimate.response';

/** The service's budget: 5,000 requests an hour per project, for all its integrations together. */
export const SERVICE_REQUESTS_PER_HOUR = 5000;
/** Streams sent in batches of batch_size (add-orders, clients import, events bulk); the others one request per record. */
const BATCHED_STREAMS = new Set(['deals', 'clients', 'events']);
/** How many recent runs the record counts are taken from. */
const RUNS_LOOKED_AT = 20;

/**
 * What a full resync would cost against the hourly budget. A full run reads and sends every record again,
 * so each stream's size is the most records one of its recent runs read (an incremental run reads fewer).
 */
@Injectable()
export class ResyncEstimateService {
  constructor(
    private readonly config: TrackerSyncConfig,
    private readonly runs: RunsQueryService,
  ) {}

  async estimate(connectionId: string): Promise<ResyncEstimateResponse> {
    const connection = this.config.connections.find((c) => c.id === connectionId);
    if (!connection) throw new UnknownConnectionError(connectionId);
    const batchSize = connection.sync?.batch_size ?? this.config.tracker.batch_size;
    // the runs of the project it feeds now: another project's source (before the connection id moved) says nothing of this one's
    const { runs } = await this.runs.list({ connection: connectionId, limit: RUNS_LOOKED_AT, offset: 0 }, ProjectScope.of([projectNameOf(connection)]));

    const records = new Map<string, number>();
    for (const run of runs) {
      for (const [stream, counters] of Object.entries(run.streams)) {
        records.set(stream, Math.max(records.get(stream) ?? 0, counters?.read ?? 0));
      }
    }
    const streams: Record<string, StreamEstimate> = {};
    let requests = 0;
    for (const [stream, count] of records) {
      const streamRequests = BATCHED_STREAMS.has(stream) ? Math.ceil(count / batchSize) : count;
      streams[stream] = { records: count, requests: streamRequests };
      requests += streamRequests;
    }
    const rateLimit = this.config.tracker.rate_limit;
    return {
      connection_id: connectionId,
      runs_looked_at: runs.length,
      batch_size: batchSize,
      streams,
      requests,
      service_per_hour: SERVICE_REQUESTS_PER_HOUR,
      service_share_percent: percent(requests, SERVICE_REQUESTS_PER_HOUR),
      daemon_per_hour: rateLimit === 'off' ? null : rateLimit.per_hour,
    };
  }
}

/** One decimal; a cost that is not nothing never shows as 0. */
function percent(part: number, whole: number): number {
  const value = Math.round((1000 * part) / whole) / 10;
  return part > 0 && value === 0 ? 0.1 : value;
}
