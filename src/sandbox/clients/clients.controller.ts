import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ProjectId } from '../auth/project-id.decorator';
import { bodyObject, listBody, requireArray } from '../validation/body-checks';
import { readClientInput } from './client-input';
import { ClientsService } from './clients.service';

@Controller('project/clients')
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Post('import')
  @HttpCode(200)
  async import(@ProjectId() projectId: number, @Body() body: unknown) {
    const clients = requireArray(body, 'body').map(readClientInput);
    await this.clients.import(projectId, clients);
    return { status: 'success' };
  }

  @Post()
  @HttpCode(200)
  list(@ProjectId() projectId: number, @Body() body: unknown) {
    return this.clients.list(projectId, listBody(body));
  }

  @Get('detail/feed')
  feed(@ProjectId() projectId: number, @Query('client') client: unknown) {
    return this.clients.feed(projectId, client);
  }
}
