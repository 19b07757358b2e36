import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ConnectionsService } from '../../engine';
import { OpenRejectionEntity } from '../../store';
import { OpenRejectionListResponse, toOpenRejectionResponse } from '../dto/open-rejection.response';

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
    @InjectRepository(OpenRejectionEntity) private readonly open: Repository<OpenRejectionEntity>,
  ) {}

  /** Per stream, oldest first. Throws UnknownConnectionError (→ 404) for an id the config does not hold. */
  async list(connectionId: string, query: OpenRejectionsQuery): Promise<OpenRejectionListResponse> {
    await this.connections.get(connectionId);
    const where = { connection_id: connectionId, ...(query.stream ? { stream: query.stream } : {}) };
    const [rows, total] = await this.open.findAndCount({
      where,
      order: { stream: 'ASC', first_seen: 'ASC', record_key: 'ASC', field: 'ASC' },
      take: query.limit,
      skip: query.offset,
    });
    return { rejected: rows.map(toOpenRejectionResponse), total, limit: query.limit, offset: query.offset };
  }
}
