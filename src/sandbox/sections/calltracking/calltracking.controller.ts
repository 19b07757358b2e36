import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { badRequest } from '../../errors/sandbox-error';
import { FieldReader } from '../common/field-reader';
import { success } from '../common/success';
import { CalltrackingService } from './calltracking.service';

/** Call tracking scripts. */
@Controller('project/calltracking/script')
@UseGuards(SandboxAuthGuard)
export class CalltrackingController {
  constructor(private readonly scripts: CalltrackingService) {}

  @Post('create')
  @HttpCode(200)
  async create(@ProjectId() project: number, @Body() body: unknown) {
    return success({ data: await this.scripts.create(project, body), total: 1 });
  }

  @Post('list')
  @HttpCode(200)
  listByPost(@ProjectId() project: number, @Body() body: unknown, @Query('is_deleted') query?: string) {
    return this.list(project, body, query);
  }

  /** GET is accepted as well; `is_deleted` may then come in the query. */
  @Get('list')
  listByGet(@ProjectId() project: number, @Body() body: unknown, @Query('is_deleted') query?: string) {
    return this.list(project, body, query);
  }

  @Post('update')
  @HttpCode(200)
  async update(@ProjectId() project: number, @Body() body: unknown) {
    await this.scripts.update(project, body);
    return success();
  }

  @Post('delete')
  @HttpCode(200)
  async delete(@ProjectId() project: number, @Body() body: unknown) {
    await this.scripts.delete(project, body);
    return success();
  }

  private async list(project: number, body: unknown, query: string | undefined) {
    const data = await this.scripts.list(project, readIsDeleted(body, query));
    return success({ data, total: data.length });
  }
}

/** `is_deleted` from the body (integer 0/1) or, for GET, from the query ("0"/"1"). */
function readIsDeleted(body: unknown, query: string | undefined): 0 | 1 {
  const fromBody = FieldReader.ofListBody(body).optionalFlag('is_deleted');
  if (fromBody !== undefined) return fromBody;
  if (query === undefined || query === '') return 0;
  if (query !== '0' && query !== '1') throw badRequest('is_deleted', `is_deleted: must be 0 or 1, got "${query}"`);
  return Number(query) as 0 | 1;
}
