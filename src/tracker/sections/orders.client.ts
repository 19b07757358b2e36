import { BatchOutcome, runBatches } from '../batching';
import { normalizeAndFilters } from '../filters';
import { SerializedJson } from '../http/serialized-json';
import { TrackerHttp } from '../http/tracker-http';
import {
  ADD_ORDERS_COUNTERS,
  AddOrder,
  AddOrdersCounters,
  AddOrdersResponse,
  OrderDetail,
  OrderExternalUrlResponse,
  OrderListRequest,
  OrderListResponse,
} from '../types/orders.types';
import { BatchSettings } from './batch-settings';

/** Counters summed over all acknowledged batches, plus every batch's own outcome. */
export interface AddOrdersResult extends AddOrdersCounters {
  /** Non-empty `comment`s of the batches, in batch order. */
  comments: string[];
  failedBatches: number;
  batches: BatchOutcome<AddOrdersResponse>[];
}

export class OrdersClient {
  constructor(
    private readonly http: TrackerHttp,
    private readonly batching: BatchSettings,
  ) {}

  /** POST /project/integration/order/list (rate-limited per the Limits table). */
  list(req: OrderListRequest = {}): Promise<OrderListResponse> {
    return this.http.call('ordersList', { body: { ...req, filters: normalizeAndFilters(req.filters) } });
  }

  /** POST /project/add-orders, split into batches of `batchSize`, `concurrency` in flight. */
  async add(orders: AddOrder[]): Promise<AddOrdersResult> {
    const { batchSize, concurrency } = this.batching;
    const batches = await runBatches(orders, batchSize, concurrency, (batch) => this.addBatch(batch));
    return sumAddOrders(batches);
  }

  /** POST /project/add-orders: exactly one request with the given orders (or their JSON array, serialised once). */
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

export function sumAddOrders(batches: BatchOutcome<AddOrdersResponse>[]): AddOrdersResult {
  const result: AddOrdersResult = { ...zeroCounters(), comments: [], failedBatches: 0, batches };
  for (const batch of batches) {
    if (!batch.response) {
      result.failedBatches++;
      continue;
    }
    for (const key of ADD_ORDERS_COUNTERS) result[key] += Number(batch.response[key] ?? 0) || 0;
    if (batch.response.comment) result.comments.push(batch.response.comment);
  }
  return result;
}

function zeroCounters(): AddOrdersCounters {
  return Object.fromEntries(ADD_ORDERS_COUNTERS.map((k) => [k, 0])) as unknown as AddOrdersCounters;
}
