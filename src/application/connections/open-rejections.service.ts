import { Injectable } from '@nestjs/common';
import { ConnectionsService } from '../../engine';
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
  ) {}

  /** Per stream, oldest first. Throws UnknownConnectionError (→ 404) for an id the config does not hold. */
  async list(connectionId: string, query: OpenRejectionsQuery): Promise<OpenRejectionListResponse> {
    await this.connections.get(connectionId);
    const { rows, total } = await this.open.pageOf(connectionId, query.stream, query);
    return { rejected: rows.map(toOpenRejectionResponse), total, limit: query.limit, offset: query.offset };
  }
}
