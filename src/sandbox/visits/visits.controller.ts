import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { writeJsonList } from '../http/json-list-answer';
import { HeavyListGate, requestedLimit } from '../http/heavy-list-gate';
import { ProjectId } from '../auth/project-id.decorator';
import { badRequest } from '../errors/sandbox-error';
import { bodyObject, listBody, requireArray } from '../validation/body-checks';
import type { VisitOverrides } from './visit-factory';
import { VisitsService } from './visits.service';

@Controller()
export class VisitsController {
  constructor(private readonly visits: VisitsService, private readonly gate: HeavyListGate) {}

  /** Written as it is read (writeJsonList): `{data, total, status}`. */
  @Post('project/site/visit/list')
  async list(@ProjectId() projectId: number, @Body() body: unknown, @Res() response: Response) {
    const request = listBody(body);
    await this.gate.run(requestedLimit(request), async () => {
      const { chunks, count } = this.visits.listChunks(projectId, request);
      await writeJsonList(response, 'data', chunks, () => ({ total: count.total, status: 'success' }));
    });
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
