import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Order, OrderListResponse } from '../../tracker/types/orders.types';
import { OperationLimit, SandboxBudgetService } from '../budget/sandbox-budget.service';
import { notFound } from '../errors/sandbox-error';
import { parseFilters } from '../filters/triple-filter';
import { checkLimit } from '../validation/list-caps';
import { SandboxClientEntity } from '../storage/client.entity';
import { SandboxOrderStatusEntity } from '../storage/order-status.entity';
import { InjectSandboxDataSource } from '../storage/sandbox-data-source';
import { visitSummary } from '../visits/visit-record';
import { VisitsService } from '../visits/visits.service';
import { Json, optionalInteger, optionalStringArray } from '../validation/body-checks';
import { orderFilterSql } from './order-sql-filter';
import { ClientFacts, StatusInfo, orderDetail, orderListItem, productView } from './order-view';
import { OrderRow, StoredOrder, rowToOrder } from './stored-order';

const DEFAULT_ORDER_LIMIT = 100;
/** Orders built and written at a time by the order list. */
const ORDER_CHUNK = 500;
const MINUTE = 60_000;

/**
 * Rate limits of the order list (Limits table). The table leaves `limit` = 100 and = 1000 open;
 * the sandbox puts 100 in the "below 100" tier and 1000 in the "above 100" tier.
 */
export function orderListLimits(extendVisit: boolean, limit: number): { operation: string; limits: OperationLimit[] } {
  if (!extendVisit) return { operation: 'order list', limits: [{ max: 20, windowMs: MINUTE }] };
  if (limit > 1000) return { operation: 'order list with visit, limit above 1000', limits: [{ max: 1, windowMs: MINUTE }] };
  if (limit > 100) return { operation: 'order list with visit, limit above 100', limits: [{ max: 5, windowMs: MINUTE }] };
  return { operation: 'order list with visit, limit up to 100', limits: [{ max: 10, windowMs: MINUTE }] };
}

@Injectable()
export class OrderQueryService {
  constructor(
    @InjectSandboxDataSource() private readonly dataSource: DataSource,
    private readonly budget: SandboxBudgetService,
    private readonly visits: VisitsService,
  ) {}

  /**
   * The order list as chunks of ORDER_CHUNK items (written as they are built by writeJsonList), so that a request at
   * the cap (10,000 orders with their visits) holds one chunk at a time. Filters, limit and the rate are checked, and
   * `total` counted, before the first chunk.
   */
  async listChunks(projectId: number, body: Json): Promise<{ total: number; chunks: AsyncIterable<Order[]> }> {
    const where = orderFilterSql(projectId, parseFilters(body.filters));
    const extendVisit = (optionalStringArray(body, 'extend') ?? []).includes('visit');
    const limit = optionalInteger(body, 'limit') ?? DEFAULT_ORDER_LIMIT;
    checkLimit(limit, 'orders');
    const offset = optionalInteger(body, 'offset') ?? 0;
    const tier = orderListLimits(extendVisit, limit);
    this.budget.chargeOperation(projectId, tier.operation, tier.limits);
    const [{ total }] = await this.dataSource.query(`SELECT COUNT(*) AS total FROM sb_order o WHERE ${where.sql}`, where.params) as
      { total: number }[];
    const statuses = await this.statuses(projectId);
    const chunks = async function* (this: OrderQueryService) {
      for (let start = 0; start < limit; start += ORDER_CHUNK) {
        const rows = await this.dataSource.query(
          `SELECT o.rowid AS seq, o.* FROM sb_order o WHERE ${where.sql} ORDER BY o.creation_date, o.rowid LIMIT ? OFFSET ?`,
          [...where.params, Math.min(ORDER_CHUNK, limit - start), offset + start]) as OrderRow[];
        const orders = rows.map(rowToOrder);
        const visits = await this.visits.getMany(projectId, orders.map((order) => order.tracker).filter((id): id is string => !!id));
        if (extendVisit) await this.visits.attachOrderIds(projectId, [...visits.values()]);
        yield orders.map((order) => orderListItem(order, statuses.get(order.statusId),
          order.tracker ? visits.get(order.tracker) : null, extendVisit));
        if (rows.length < Math.min(ORDER_CHUNK, limit - start)) return;
      }
    }.call(this);
    return { total, chunks };
  }

  /** The order list collected in memory (listChunks, for callers that need the records). */
  async list(projectId: number, body: Json): Promise<OrderListResponse> {
    const { total, chunks } = await this.listChunks(projectId, body);
    const data: Order[] = [];
    for await (const items of chunks) data.push(...items);
    return { data, total, status: 'success' };
  }

  async info(projectId: number, orderId: string): Promise<Record<string, unknown>> {
    const order = await this.find(projectId, orderId);
    const statuses = await this.statuses(projectId);
    const orderVisit = order.tracker ? (await this.visits.getMany(projectId, [order.tracker])).get(order.tracker) : undefined;
    const chain = orderVisit
      ? (await this.visits.chain(projectId, orderVisit.first_visit_id)).filter((visit) => visit.date <= orderVisit.date)
      : [];
    const detail = orderDetail(order, statuses.get(order.statusId), chain, await this.client(projectId, order),
      await this.firsts(projectId, order, statuses));
    return {
      order: detail,
      visits: chain.map((visit) => visitSummary(visit, order.tracker)),
      products: order.products.map(productView),
      status: 'success',
    };
  }

  async find(projectId: number, orderId: string): Promise<StoredOrder> {
    const rows = await this.dataSource.query('SELECT rowid AS seq, * FROM sb_order WHERE project_id = ? AND id = ?', [projectId, orderId]) as
      OrderRow[];
    if (rows.length === 0) throw notFound(`order ${orderId}`);
    return rowToOrder(rows[0]);
  }

  async statuses(projectId: number): Promise<Map<string, StatusInfo>> {
    const rows = await this.dataSource.getRepository(SandboxOrderStatusEntity).findBy({ projectId });
    return new Map(rows.map((row) => [row.id, { name: row.name, type: row.type }]));
  }

  private async client(projectId: number, order: StoredOrder): Promise<ClientFacts | null> {
    if (!order.clientId) return null;
    const client = await this.dataSource.getRepository(SandboxClientEntity).findOneBy({ projectId, externalId: order.clientId });
    if (!client) return null;
    return {
      id: String(client.id), externalId: client.externalId, name: client.name,
      phones: splitList(client.phone), emails: splitList(client.email),
    };
  }

  /** is_first: no earlier order of the same client; is_first_sale: paid, and no earlier paid one. */
  private async firsts(projectId: number, order: StoredOrder, statuses: Map<string, StatusInfo>):
  Promise<{ isFirst: boolean; isFirstSale: boolean }> {
    const paid = statuses.get(order.statusId)?.type === 'paid';
    if (!order.clientId) return { isFirst: true, isFirstSale: paid };
    const earlier = await this.dataSource.query(
      `SELECT status_id FROM sb_order WHERE project_id = ? AND client_id = ? AND id != ?
       AND (creation_date < ? OR (creation_date = ? AND rowid < ?))`,
      [projectId, order.clientId, order.id, order.creationDate, order.creationDate, order.seq]) as { status_id: string }[];
    const earlierSale = earlier.some((row) => statuses.get(row.status_id)?.type === 'paid');
    return { isFirst: earlier.length === 0, isFirstSale: paid && !earlierSale };
  }
}

function splitList(value: string | null): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
}
