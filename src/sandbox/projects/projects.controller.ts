import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { NoProject } from '../auth/no-project.decorator';
import { ApiKey, ProjectId } from '../auth/project-id.decorator';
import { badRequest } from '../errors/sandbox-error';
import { bodyObject, requireString } from '../validation/body-checks';
import { PROJECT_CURRENCIES } from './currencies';
import { ProjectsService } from './projects.service';

/** Projects (list, create: no `project` parameter) and the project's tracking codes. */
@Controller()
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get('user/projects')
  @NoProject()
  async list(@ApiKey() apiKey: string) {
    return { projects: await this.projects.listForKey(apiKey), status: 'success' };
  }

  /** The service answers this one without `status`. */
  @Post('account/project/create')
  @NoProject()
  @HttpCode(200)
  async create(@ApiKey() apiKey: string, @Body() rawBody: unknown) {
    const body = bodyObject(rawBody);
    const name = requireString(body, 'name');
    const currency = requireString(body, 'currency');
    if (!PROJECT_CURRENCIES.includes(currency)) {
      throw badRequest('currency', `currency: ${JSON.stringify(currency)} is not one of ${PROJECT_CURRENCIES.join(', ')}`);
    }
    return { data: await this.projects.create(apiKey, name, currency) };
  }

  /** The service answers this one without `status`; GET is accepted as well. */
  @Post('project/settings/counter/list')
  @HttpCode(200)
  async countersPost(@ProjectId() projectId: number) {
    return { data: await this.projects.trackingCodes(projectId) };
  }

  @Get('project/settings/counter/list')
  async countersGet(@ProjectId() projectId: number) {
    return this.countersPost(projectId);
  }
}
