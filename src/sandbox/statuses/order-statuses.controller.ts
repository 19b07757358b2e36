import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { OrderStatusDefinition } from '../../tracker/types/orders.types';
import { ProjectId } from '../auth/project-id.decorator';
import { badRequest } from '../errors/sandbox-error';
import { requireArray, requireId, requireObject, requireString } from '../validation/body-checks';
import { OrderStatusesService } from './order-statuses.service';

const DEFINABLE_TYPES: readonly string[] = ['progress', 'paid', 'canceled'];

/**
 * The project's order statuses: two operations outside the specification, with the shapes public clients of the
 * real service use (see the README's table): `status/list` answers `{data: [{id, name, type}], total, status}`;
 * `set-statuses` takes a JSON array of `{id, name, type}`.
 */
@Controller('project')
export class OrderStatusesController {
  constructor(private readonly statuses: OrderStatusesService) {}

  @Post('integration/status/list')
  @HttpCode(200)
  @ApiOperation({
    summary: "The project's order statuses",
    description: 'Outside the specification, shape from public clients. Answers `{data: [{id, name, type}], total, status}`.',
  })
  async list(@ProjectId() projectId: number) {
    const data = await this.statuses.list(projectId);
    return { data, total: data.length, status: 'success' };
  }

  @Post('set-statuses')
  @HttpCode(200)
  @ApiOperation({
    summary: "Defines the project's order statuses",
    description: 'Outside the specification, shape from public clients. Body: a JSON array of `{id, name, type}`, '
      + '`type` one of progress, paid, canceled; it replaces the project\'s whole dictionary.',
  })
  async set(@ProjectId() projectId: number, @Body() body: unknown) {
    await this.statuses.set(projectId, readStatuses(body));
    return { status: 'success' };
  }
}

/** Our assumption: an empty list (which would refuse every order) is a 400, as the n8n node refuses to send one. */
function readStatuses(body: unknown): OrderStatusDefinition[] {
  const items = requireArray(body, 'body');
  if (items.length === 0) throw badRequest('body', 'body: give the whole status dictionary, at least one status');
  return items.map((item, index) => {
    const path = `[${index}]`;
    const status = requireObject(item, path);
    const type = requireString(status, 'type', `${path}.type`);
    if (!DEFINABLE_TYPES.includes(type)) {
      throw badRequest(`${path}.type`, `${path}.type: must be one of ${DEFINABLE_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
    }
    return {
      id: requireId(status, 'id', `${path}.id`),
      name: requireString(status, 'name', `${path}.name`),
      type: type as OrderStatusDefinition['type'],
    };
  });
}
