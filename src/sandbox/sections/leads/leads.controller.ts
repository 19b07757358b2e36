import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { LEAD_STATUSES } from './lead.types';
import { LeadsService } from './leads.service';

/** Leads without a CRM. */
@Controller('project/leads')
@UseGuards(SandboxAuthGuard)
export class LeadsController {
  constructor(private readonly leads: LeadsService) {}

  @Post('lead/list')
  @HttpCode(200)
  async list(@ProjectId() project: number, @Body() body: unknown) {
    return success(await this.leads.list(project, body));
  }

  @Post('status/list')
  @HttpCode(200)
  statuses() {
    return success({ data: LEAD_STATUSES.map((status) => ({ ...status })), total: LEAD_STATUSES.length });
  }

  @Post('lead/create')
  @HttpCode(200)
  async create(@ProjectId() project: number, @Body() body: unknown) {
    return success({ lead_id: await this.leads.create(project, body) });
  }

  @Post('lead/update')
  @HttpCode(200)
  async update(@ProjectId() project: number, @Body() body: unknown) {
    await this.leads.update(project, body);
    return success();
  }
}
