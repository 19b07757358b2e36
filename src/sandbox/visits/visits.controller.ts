import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ProjectId } from '../auth/project-id.decorator';
import { badRequest } from '../errors/sandbox-error';
import { bodyObject, listBody, requireArray } from '../validation/body-checks';
import type { VisitOverrides } from './visit-factory';
import { VisitsService } from './visits.service';

@Controller()
export class VisitsController {
  constructor(private readonly visits: VisitsService) {}

  @Post('project/site/visit/list')
  @HttpCode(200)
  list(@ProjectId() projectId: number, @Body() body: unknown) {
    return this.visits.list(projectId, listBody(body));
  }

  @Post('project/site/visit/params/update')
  @HttpCode(200)
  async updateParams(@ProjectId() projectId: number, @Body() body: unknown) {
    await this.visits.updateParams(projectId, bodyObject(body));
    return { status: 'success' };
  }

  /**
   * Sandbox only (not an operation of the service): records visits, as the service's tracking
   * code would. Body: array of partial Visit records (`id`, `date`, `source.system_name`, ...).
   * Orders waiting for these visits are written right after. Answers the ids, not the records
   * (the visit list shows them), so that seeding thousands of visits stays cheap.
   */
  @Post('_sandbox/visits')
  @HttpCode(200)
  async add(@ProjectId() projectId: number, @Body() body: unknown) {
    const items = requireArray(body, 'body');
    items.forEach((item, index) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(`[${index}]`, `[${index}]: must be an object`);
    });
    const visits = await this.visits.addVisits(projectId, items as VisitOverrides[]);
    return { visit_ids: visits.map((visit) => visit.id), total: visits.length, status: 'success' };
  }
}
