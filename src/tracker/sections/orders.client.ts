import { normalizeAndFilters } from '../filters';
import { SerializedJson } from '../http/serialized-json';
import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import {
  AddOrder,
  AddOrdersResponse,
  OrderDetail,
  OrderExternalUrlResponse,
  OrderListRequest,
  OrderListResponse,
  OrderStatusDefinition,
  OrderStatusListResponse,
} from '../types/orders.types';

export class OrdersClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/integration/order/list (rate-limited per the Limits table). */
  list(req: OrderListRequest = {}): Promise<OrderListResponse> {
    return this.http.call('ordersList', { body: { ...req, filters: normalizeAndFilters(req.filters) } });
  }

  /**
   * POST /project/add-orders: exactly one request with the given orders (or their JSON array, serialised once).
   * The engine splits a run into batches (its `batch_size`) and records each batch's answer.
   */
  addBatch(orders: AddOrder[] | SerializedJson): Promise<AddOrdersResponse> {
    return this.http.call('ordersAdd', { body: orders });
  }

  /** GET /project/orders/{orderId}/info */
  info(orderId: string): Promise<OrderDetail> {
    return this.http.call('ordersInfo', { pathParams: { orderId } });
  }

  /** GET /project/orders/{orderId}/external-url (body not shown in the spec). */
  externalUrl(orderId: string): Promise<OrderExternalUrlResponse> {
    return this.http.call('ordersExternalUrl', { pathParams: { orderId } });
  }

  /**
   * POST /project/integration/status/list: the project's order statuses (ids add-orders accepts).
   * Outside the specification; the answer `{data, total, status}` as public clients read it.
   */
  async listStatuses(): Promise<OrderStatusDefinition[]> {
    const answer = await this.http.call<OrderStatusListResponse>('orderStatusesList', { body: {} });
    return answer.data ?? [];
  }

  /**
   * POST /project/set-statuses: defines the project's order statuses (a JSON array body of `{id, name, type}`).
   * Outside the specification; the shape as public clients send it.
   */
  setStatuses(statuses: OrderStatusDefinition[]): Promise<StatusResponse> {
    return this.http.call('orderStatusesSet', { body: statuses });
  }
}
