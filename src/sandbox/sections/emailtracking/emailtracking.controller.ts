import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { EmailTrackingService } from './emailtracking.service';

/** E-mail tracking: the list of tracked e-mails and attachment downloads. */
@Controller('project/emailtracking/email')
@UseGuards(SandboxAuthGuard)
export class EmailTrackingController {
  constructor(private readonly emails: EmailTrackingService) {}

  @Post('list')
  @HttpCode(200)
  async list(@ProjectId() project: number, @Body() body: unknown) {
    return success(await this.emails.list(project, body));
  }

  @Get(':emailId/attachment/:attachmentId')
  attachment(
    @ProjectId() project: number,
    @Param('emailId') emailId: string,
    @Param('attachmentId') attachmentId: string,
  ): Promise<StreamableFile> {
    return this.emails.attachment(project, emailId, attachmentId);
  }
}
