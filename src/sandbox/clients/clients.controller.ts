import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { writeJsonList } from '../http/json-list-answer';
import { HeavyListGate, requestedLimit } from '../http/heavy-list-gate';
import { ProjectId } from '../auth/project-id.decorator';
import { bodyObject, listBody, requireArray } from '../validation/body-checks';
import { readClientInput } from './client-input';
import { ClientsService } from './clients.service';

@Controller('project/clients')
export class ClientsController {
  constructor(private readonly clients: ClientsService, private readonly gate: HeavyListGate) {}

  @Post('import')
  @HttpCode(200)
  async import(@ProjectId() projectId: number, @Body() body: unknown) {
    const clients = requireArray(body, 'body').map(readClientInput);
    await this.clients.import(projectId, clients);
    return { status: 'success' };
  }

  /** Written as it is read (writeJsonList): `{clients, total, status}`. */
  @Post()
  async list(@ProjectId() projectId: number, @Body() body: unknown, @Res() response: Response) {
    const request = listBody(body);
    await this.gate.run(requestedLimit(request), async () => {
      const { chunks, count } = this.clients.listChunks(projectId, request);
      await writeJsonList(response, 'clients', chunks, () => ({ total: count.total, status: 'success' }));
    });
  }

  @Get('detail/feed')
  feed(@ProjectId() projectId: number, @Query('client') client: unknown) {
    return this.clients.feed(projectId, client);
  }
}
