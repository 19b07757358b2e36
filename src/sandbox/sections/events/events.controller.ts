import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { isPlainObject } from '../common/field-reader';
import { success } from '../common/success';
import { EventsService } from './events.service';

/** Custom events. */
@Controller('project/events')
@UseGuards(SandboxAuthGuard)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Post('add')
  @HttpCode(200)
  async add(@ProjectId() project: number, @Body() body: unknown) {
    return success({ events: await this.events.add(project, body) });
  }

  /** The body (an array of definitions in the specification) carries nothing the archive needs. */
  @Post('meta/:eventId/archive')
  @HttpCode(200)
  async archive(@ProjectId() project: number, @Param('eventId') eventId: string) {
    return success({ events: await this.events.archive(project, eventId) });
  }

  /**
   * The specification sends the criteria as a body on GET; many clients cannot, so the query is
   * read as well (the body wins for a field given twice). `project` is not a criterion.
   */
  @Get('log')
  async log(@ProjectId() project: number, @Body() body: unknown, @Query() query: Record<string, unknown>) {
    const { project: _project, ...criteria } = query;
    const fromBody = isPlainObject(body) ? body : {};
    return success({ items: await this.events.log(project, { ...criteria, ...fromBody }) });
  }

  @Post('send')
  @HttpCode(200)
  async send(@ProjectId() project: number, @Body() body: unknown) {
    await this.events.send(project, body);
    return success();
  }

  @Post('bulk/send')
  @HttpCode(200)
  async bulkSend(@ProjectId() project: number, @Body() body: unknown) {
    await this.events.bulkSend(project, body);
    return success();
  }
}
