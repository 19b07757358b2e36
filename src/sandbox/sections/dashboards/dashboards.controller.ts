import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { DashboardsService } from './dashboards.service';

/** Dashboards and widgets. */
@Controller('project/dashboards')
@UseGuards(SandboxAuthGuard)
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Get()
  async list(@ProjectId() project: number) {
    return success({ dashboards: await this.dashboards.list(project) });
  }

  @Get(':dashboardId/widgets')
  async widgets(@ProjectId() project: number, @Param('dashboardId') dashboardId: string) {
    return success({ widgets: await this.dashboards.widgets(project, dashboardId) });
  }
}
