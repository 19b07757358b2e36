import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import { AddressInfo } from 'net';

/**
 * A scripted answer: returned instead of the normal one (e.g. a 500; `html`: a page that is not the service's JSON,
 * as a proxy's maintenance page), or 'drop' to cut the connection.
 */
export type Script = (call: ServiceCall) => { status: number; body: unknown } | { status: number; html: string } | 'drop' | undefined;

export interface ServiceCall {
  path: string;
  body: any;
  /** ids of the records in the body (orders, clients) or the manager id */
  ids: string[];
  apiKey: string;
  /** when the request arrived (ms) */
  at: number;
}

/**
 * A small loopback twin of the service for engine tests: keeps what it acknowledges, answers add-orders
 * with counters, and can be scripted to fail. Orders whose id is in `invalidDateIds` are skipped the
 * way the service skips an invalid date_create (counter + ids in `comment`).
 */
export class FakeTrackerService {
  readonly orders = new Map<string, any>();
  readonly clients = new Map<string, any>();
  readonly managers = new Map<string, any>();
  readonly calls: ServiceCall[] = [];
  /** order ids received, in arrival order, counting re-sends */
  readonly orderDeliveries: string[] = [];
  readonly invalidDateIds = new Set<string>();
  /** the skip's comment counts the orders without naming them (the service's wording is not specified) */
  commentWithoutIds = false;
  /**
   * The project's status ids, when set: add-orders skips an order whose status is not one of them (skipped_by_status,
   * unnamed, as the service does) and the status list answers them.
   */
  statuses: string[] | null = null;
  script: Script | null = null;
  /** ms to wait before answering add-orders */
  delayMs = 0;
  private server: Server | null = null;
  baseUrl: string | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  callsTo(suffix: string): ServiceCall[] {
    return this.calls.filter((c) => c.path.endsWith(suffix));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0].replace(/^\/api\/v1/, '');
      let body: any = undefined;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        return this.send(res, 400, { status: 'error', error: 'bad json' });
      }
      const ids = Array.isArray(body) ? body.map((b: any) => String(b.id)) : body?.id ? [String(body.id)] : [];
      const call: ServiceCall = { path, body, ids, apiKey: String(req.headers['api-key'] ?? ''), at: Date.now() };
      this.calls.push(call);
      const scripted = this.script?.(call);
      if (scripted === 'drop') return void req.socket.destroy();
      if (scripted && 'html' in scripted) {
        res.writeHead(scripted.status, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(scripted.html) });
        return void res.end(scripted.html);
      }
      if (scripted) return this.send(res, scripted.status, scripted.body);
      const answer = this.answer(call);
      if (this.delayMs && path === '/project/add-orders') setTimeout(() => this.send(res, 200, answer), this.delayMs);
      else this.send(res, 200, answer);
    });
  }

  private answer(call: ServiceCall): unknown {
    switch (call.path) {
      case '/project/add-orders':
        return this.addOrders(call.body);
      case '/project/clients/import':
        for (const c of call.body) this.clients.set(String(c.id), c);
        return { status: 'success' };
      case '/project/integration/manager/add':
        if (this.managers.has(call.body.id)) return { status: 'error', error: 'exists', description: `manager ${call.body.id} exists` };
        this.managers.set(call.body.id, call.body);
        return { status: 'success' };
      case '/project/integration/manager/update':
        if (!this.managers.has(call.body.id)) return { status: 'error', error: 'resource_not_found' };
        this.managers.set(call.body.id, { ...this.managers.get(call.body.id), ...call.body });
        return { status: 'success' };
      case '/project/integration/status/list': {
        const data = (this.statuses ?? []).map((id) => ({ id, name: `Status ${id}`, type: 'progress' }));
        return { status: 'success', data, total: data.length };
      }
      case '/project/integration/manager/delete':
        this.managers.delete(String(call.body.id));
        return { status: 'success' };
      default:
        return { status: 'success' };
    }
  }

  private addOrders(orders: any[]): unknown {
    const invalid: string[] = [];
    let byStatus = 0;
    for (const o of orders) {
      this.orderDeliveries.push(String(o.id));
      if (this.invalidDateIds.has(String(o.id))) invalid.push(String(o.id));
      else if (this.statuses && !this.statuses.includes(String(o.status))) byStatus++;
      else this.orders.set(String(o.id), o);
    }
    const n = orders.length;
    return {
      status: 'success',
      uploaded: n,
      processed: n,
      saved: n - invalid.length - byStatus,
      skipped_by_status: byStatus,
      skipped_by_waiting_visit_info: 0,
      skipped_by_internal_error: 0,
      skipped_because_not_changed: 0,
      skipped_by_invalid_format: invalid.length,
      skipped_fields_by_invalid_format: 0,
      comment: !invalid.length ? '' : this.commentWithoutIds ? `Invalid date_create format in ${invalid.length} orders` : `Invalid date_create format in orders: ${invalid.join(', ')}`,
    };
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }
}
