import { normalizeAndFilters } from '../filters';
import { SerializedJson } from '../http/serialized-json';
import { TrackerHttp } from '../http/tracker-http';
import {
  AddOrder,
  AddOrdersResponse,
  OrderDetail,
  OrderExternalUrlResponse,
  OrderListRequest,
  OrderListResponse,
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
}
