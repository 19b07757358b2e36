import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { CampaignsService } from './campaigns.service';

/** E-mail campaigns and their recipients. */
@Controller('project/clients/campaign')
@UseGuards(SandboxAuthGuard)
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  /** The specification shows only `data`; `total` and `status` follow Conventions 5. */
  @Post('list')
  @HttpCode(200)
  async list(@ProjectId() project: number, @Body() body: unknown) {
    return success(await this.campaigns.list(project, body));
  }

  @Post('contact/list')
  @HttpCode(200)
  async contacts(@ProjectId() project: number, @Body() body: unknown) {
    return success(await this.campaigns.contacts(project, body));
  }
}
