import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { MediaPlansService } from './mediaplans.service';

/** Media plans. */
@Controller('project/mediaplan/target')
@UseGuards(SandboxAuthGuard)
export class MediaPlansController {
  constructor(private readonly plans: MediaPlansService) {}

  @Post('list')
  @HttpCode(200)
  async list(@ProjectId() project: number, @Body() body: unknown) {
    const data = await this.plans.list(project, body);
    return success({ data, total: data.length });
  }

  @Post('create')
  @HttpCode(200)
  async create(@ProjectId() project: number, @Body() body: unknown) {
    await this.plans.create(project, body);
    return success();
  }

  @Post('update')
  @HttpCode(200)
  async update(@ProjectId() project: number, @Body() body: unknown) {
    await this.plans.update(project, body);
    return success();
  }

  @Post('delete')
  @HttpCode(200)
  async delete(@ProjectId() project: number, @Body() body: unknown) {
    await this.plans.delete(project, body);
    return success();
  }
}
