import { Injectable } from '@nestjs/common';
import { ConnectionsService } from '../../engine';
import { TrackerSyncConfig } from '../../config/config.schema';
import { projectNameOf } from '../../config/project-targets';
import { OpenRejectionStore } from '../../store';
import { OpenRejectionListResponse, toOpenRejectionResponse } from '../answers/open-rejection.response';

export interface OpenRejectionsQuery {
  stream?: string;
  limit: number;
  offset: number;
}

/** A connection's open rejections (records rejected and not fixed yet), for the admin API and the CLI. */
@Injectable()
export class OpenRejectionsService {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly open: OpenRejectionStore,
    private readonly config: TrackerSyncConfig,
  ) {}

  /**
   * Per stream, oldest first: those of the project the connection feeds now (not another project's, from before the
   * connection id moved). Throws UnknownConnectionError (→ 404) for an id the config does not hold.
   */
  async list(connectionId: string, query: OpenRejectionsQuery): Promise<OpenRejectionListResponse> {
    await this.connections.get(connectionId);
    const project = projectNameOf(this.config.connections.find((c) => c.id === connectionId) ?? {});
    const { rows, total } = await this.open.pageOf(connectionId, query.stream, query, project);
    return { rejected: rows.map(toOpenRejectionResponse), total, limit: query.limit, offset: query.offset };
  }
}
