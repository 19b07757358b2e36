import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ProjectScope } from '../../application/project-scope';
import { ProjectListResponse } from '../../application/projects/project.response';
import { ProjectsQueryService } from '../../application/projects/projects-query.service';
import { AdminController } from '../admin-controller.decorator';
import { AdminScope, VisibleProjects } from '../auth/admin-scope.decorator';

@AdminController('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsQueryService) {}

  @Get()
  @AdminScope('list')
  @ApiOperation({
    summary: "the projects of the service this installation feeds (a scoped token's only): connections, their last syncs, budget, open rejections",
    description: '`default` is the tracker: project; the others are the names under projects:.',
  })
  @ApiOkResponse({ type: ProjectListResponse })
  async list(@VisibleProjects() scope: ProjectScope): Promise<ProjectListResponse> {
    return { projects: await this.projects.list(scope) };
  }
}
