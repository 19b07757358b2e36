import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan } from 'typeorm';
import { badRequest, notFound } from '../errors/sandbox-error';
import { matchesAll, parseFilters } from '../filters/triple-filter';
import { OrderQueryService } from '../orders/order-query.service';
import { OrderRow, StoredOrder, rowToOrder } from '../orders/stored-order';
import { SandboxClientEntity } from '../storage/client.entity';
import { SandboxDocumentStore } from '../storage/document-store';
import { nextCounterValue } from '../storage/document-store';
import { SandboxProjectEntity } from '../storage/project.entity';
import { InjectSandboxDataSource } from '../storage/sandbox-data-source';
import { serviceTimestamp } from '../storage/timestamps';
import { SandboxWriteLock } from '../storage/write-lock';
import { VisitsService } from '../visits/visits.service';
import { Json, optionalInteger } from '../validation/body-checks';
import { SCAN_CHUNK, ScanCount, checkLimit, scanMatches } from '../validation/list-caps';
import { selectIn } from '../storage/bulk-sql';
import { FeedItem, callItem, eventItem, orderItems, sortFeed, visitItem } from './client-feed';
import type { ClientInput } from './client-input';

const DEFAULT_CLIENT_LIMIT = 100;

interface OrderStats {
  client_id: string; order_count: number; revenue: number | null; cost: number | null;
  first_order: string; last_order: string; first_tracker: string | null;
}

@Injectable()
export class ClientsService {
  constructor(
    @InjectSandboxDataSource() private readonly dataSource: DataSource,
    private readonly lock: SandboxWriteLock,
    private readonly orders: OrderQueryService,
    private readonly visits: VisitsService,
    private readonly documents: SandboxDocumentStore,
  ) {}

  /** Upsert by CRM id; a new client gets the service's integer id. */
  import(projectId: number, clients: ClientInput[]): Promise<void> {
    return this.lock.run(() => this.dataSource.transaction(async (manager) => {
      for (const client of clients) {
        const existing = await manager.findOneBy(SandboxClientEntity, { projectId, externalId: client.externalId });
        await manager.save(SandboxClientEntity, {
          id: existing?.id ?? await nextCounterValue(manager, 'client'), projectId, externalId: client.externalId,
          name: client.name, phone: client.phone, email: client.email, company: client.company,
          birthDate: client.birthDate, fields: client.fields, createdAt: existing?.createdAt ?? serviceTimestamp(),
        });
      }
    }));
  }

  /**
   * `limit` at most 10,000 (400 above); the clients are read in chunks by id and the page leaves chunk by chunk
   * (writeJsonList), so a request holds one chunk. The checks run before the first chunk.
   */
  listChunks(projectId: number, body: Json): { chunks: AsyncIterable<Record<string, unknown>[]>; count: ScanCount } {
    const clauses = parseFilters(body.filters);
    const limit = optionalInteger(body, 'limit') ?? DEFAULT_CLIENT_LIMIT;
    checkLimit(limit, 'clients');
    const offset = optionalInteger(body, 'offset') ?? 0;
    const count: ScanCount = { total: 0 };
    const chunks = scanMatches(
      (after: number | null) => this.viewChunk(projectId, after),
      (client) => client.id as number,
      (client) => matchesAll(client, clauses), offset, limit, count);
    return { chunks, count };
  }

  /** Visits, orders (and their history), event triggers and calls of one client, oldest first. */
  async feed(projectId: number, clientId: unknown): Promise<{ feed: FeedItem[]; status: 'success' }> {
    if (clientId === undefined || clientId === '') throw badRequest('client', 'client: query parameter is required');
    const client = await this.findClient(projectId, String(clientId));
    const rows = await this.dataSource.query('SELECT rowid AS seq, * FROM sb_order WHERE project_id = ? AND client_id = ?',
      [projectId, client.externalId]) as OrderRow[];
    const orders = rows.map(rowToOrder);
    const visits = await this.clientVisits(projectId, orders);
    const visitIds = new Set(visits.map((visit) => visit.id));
    const orderIds = new Set(orders.map((order) => order.id));
    const statuses = await this.orders.statuses(projectId);
    const currency = (await this.dataSource.getRepository(SandboxProjectEntity).findOneBy({ id: projectId }))?.currency ?? 'RUB';
    const events = await this.documents.list<Record<string, unknown>>(projectId, 'event_log',
      (entry) => visitIds.has(String(entry.visit_id ?? entry.visit ?? '')));
    const calls = await this.documents.list<Record<string, unknown>>(projectId, 'speech_call',
      (call) => orderIds.has(String(call.order_id ?? '')) || visitIds.has(String(call.visit_id ?? '')));
    const feed = [
      ...visits.map(visitItem), ...orders.flatMap((order) => orderItems(order, statuses, currency)),
      ...events.map(eventItem), ...calls.map(callItem),
    ];
    return { feed: sortFeed(feed), status: 'success' };
  }

  private async findClient(projectId: number, clientId: string): Promise<SandboxClientEntity> {
    const repository = this.dataSource.getRepository(SandboxClientEntity);
    const client = /^\d+$/.test(clientId) ? await repository.findOneBy({ projectId, id: Number(clientId) }) : null;
    const found = client ?? await repository.findOneBy({ projectId, externalId: clientId });
    if (!found) throw notFound(`client ${clientId}`);
    return found;
  }

  /** The chains of the visits the client's orders were created on. */
  private async clientVisits(projectId: number, orders: StoredOrder[]) {
    const orderVisits = await this.visits.getMany(projectId, orders.map((order) => order.tracker).filter((id): id is string => !!id));
    const firstIds = new Set([...orderVisits.values()].map((visit) => visit.first_visit_id));
    const chains = await Promise.all([...firstIds].map((firstId) => this.visits.chain(projectId, firstId)));
    return chains.flat();
  }

  /** The next SCAN_CHUNK clients (by id, after `after`) in the service's shape, with order statistics from the stored orders. */
  private async viewChunk(projectId: number, after: number | null): Promise<Record<string, unknown>[]> {
    const clients = await this.dataSource.getRepository(SandboxClientEntity).find({
      where: { projectId, ...(after === null ? {} : { id: MoreThan(after) }) }, order: { id: 'ASC' }, take: SCAN_CHUNK,
    });
    const externalIds = clients.map((client) => client.externalId);
    const totals = await selectIn<Omit<OrderStats, 'first_tracker'>>(this.dataSource.manager,
      `SELECT client_id, COUNT(*) AS order_count, SUM(revenue) AS revenue, SUM(cost) AS cost,
       MIN(creation_date) AS first_order, MAX(creation_date) AS last_order
       FROM sb_order WHERE project_id = ? AND client_id`, [projectId], externalIds, 'GROUP BY client_id');
    // SQLite gives a bare column the values of the row min() picked: the tracker of each client's first order.
    // (A correlated subquery per client here took over a minute for 12,000 clients.)
    const firsts = await selectIn<{ client_id: string; first_tracker: string | null }>(this.dataSource.manager,
      `SELECT client_id, tracker AS first_tracker, MIN(creation_date) FROM sb_order WHERE project_id = ? AND client_id`,
      [projectId], externalIds, 'GROUP BY client_id');
    const firstTracker = new Map(firsts.map((row) => [row.client_id, row.first_tracker]));
    const stats: OrderStats[] = totals.map((row) => ({ ...row, first_tracker: firstTracker.get(row.client_id) ?? null }));
    const byClient = new Map(stats.map((row) => [row.client_id, row]));
    const firstVisits = await this.visits.getMany(projectId, stats.map((row) => row.first_tracker).filter((id): id is string => !!id));
    return clients.map((client) => {
      const stat = byClient.get(client.externalId);
      const visit = stat?.first_tracker ? firstVisits.get(stat.first_tracker) : undefined;
      const levels = visit?.source.display_name_by_level ?? [];
      return {
        id: client.id, external_id: client.externalId, name: client.name, phone: client.phone ?? '',
        email: client.email ?? '', company: client.company ?? '', first_visit_date: visit?.date ?? null,
        first_order_date: stat?.first_order ?? null, last_order_date: stat?.last_order ?? null,
        birth_date: client.birthDate, order_count: stat?.order_count ?? 0, revenue: stat?.revenue ?? 0,
        profit: (stat?.revenue ?? 0) - (stat?.cost ?? 0), comment: null,
        client_url: `https://crm.sandbox.invalid/clients/${encodeURIComponent(client.externalId)}`,
        first_visit_marker: visit ? levels.join(' / ') : null, first_visit_marker_alias: visit?.source.display_name ?? '',
        first_visit_marker_icon: visit?.source.icon_url ?? '', first_visit_marker_alias_level_1: levels[0] ?? '',
      };
    });
  }
}
