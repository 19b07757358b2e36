import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { ProxyLeadsService } from './proxyleads.service';

/** Proxy leads. */
@Controller('project/proxy-leads')
@UseGuards(SandboxAuthGuard)
export class ProxyLeadsController {
  constructor(private readonly proxyLeads: ProxyLeadsService) {}

  @Get()
  async list(@ProjectId() project: number, @Query('period') period: unknown) {
    return success({ ProxyLeads: await this.proxyLeads.list(project, period) });
  }

  /**
   * The specification names the key `ProxyLead` in its field table and `ProxyLeads` (an array)
   * in its sample answer: both are given, so a client written to either reading works.
   */
  @Get(':proxyLeadId')
  async get(@ProjectId() project: number, @Param('proxyLeadId') id: string) {
    const lead = await this.proxyLeads.get(project, id);
    return success({ ProxyLead: lead, ProxyLeads: [lead] });
  }
}
