import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { writeJsonList } from '../http/json-list-answer';
import { HeavyListGate, requestedLimit } from '../http/heavy-list-gate';
import { ProjectId } from '../auth/project-id.decorator';
import { bodyObject, listBody, requireArray } from '../validation/body-checks';
import { AddOrdersService } from './add-orders.service';
import { OrderQueryService } from './order-query.service';
import { orderExternalUrl } from './order-view';

@Controller('project')
export class OrdersController {
  constructor(
    private readonly addOrdersService: AddOrdersService,
    private readonly query: OrderQueryService,
    private readonly gate: HeavyListGate,
  ) {}

  @Post('add-orders')
  @HttpCode(200)
  addOrders(@ProjectId() projectId: number, @Body() body: unknown) {
    return this.addOrdersService.addOrders(projectId, requireArray(body, 'body'));
  }

  /** Written as it is built (writeJsonList): `{data, total, status}`. */
  @Post('integration/order/list')
  async list(@ProjectId() projectId: number, @Body() body: unknown, @Res() response: Response) {
    const request = listBody(body);
    await this.gate.run(requestedLimit(request), async () => {
      const { total, chunks } = await this.query.listChunks(projectId, request);
      await writeJsonList(response, 'data', chunks, () => ({ total, status: 'success' }));
    });
  }

  @Get('orders/:orderId/info')
  info(@ProjectId() projectId: number, @Param('orderId') orderId: string) {
    return this.query.info(projectId, orderId);
  }

  /**
   * The specification does not show this body; public clients read `externalUrl` (a PHP SDK's recorded answer
   * test/Response/OrderExternalUrl.json, the n8n community node, the Ruby gem), so the sandbox answers
   * `{externalUrl, status}`.
   */
  @Get('orders/:orderId/external-url')
  async externalUrl(@ProjectId() projectId: number, @Param('orderId') orderId: string) {
    const order = await this.query.find(projectId, orderId);
    return { externalUrl: orderExternalUrl(order), status: 'success' };
  }
}
