import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SandboxBudgetService } from '../budget/sandbox-budget.service';
import { badRequest, notFound } from '../errors/sandbox-error';
import { FilterClause, matchesAll, parseFilters } from '../filters/triple-filter';
import { normalizeDateBound } from '../storage/order-date';
import { bulkUpsert, selectIn } from '../storage/bulk-sql';
import { nextCounterValue } from '../storage/document-store';
import { InjectSandboxDataSource } from '../storage/sandbox-data-source';
import { serviceTimestamp } from '../storage/timestamps';
import { SandboxWriteLock } from '../storage/write-lock';
import { Json, optionalInteger } from '../validation/body-checks';
import { SCAN_CHUNK, ScanCount, checkLimit, scanMatches } from '../validation/list-caps';
import { buildVisit, VisitOverrides } from './visit-factory';
import { TRACKER_PARAM_COUNT, VisitRecord } from './visit-record';
import { WaitingOrders } from './waiting-orders';

const DEFAULT_VISIT_LIMIT = 1000;
/** Fields the visit list refuses to filter by (400). */
const NOT_FILTERABLE = new Set([
  'google_client_id', 'metrics_client_id', 'gclid', 'fbc', 'fbp', 'device', 'order_ids', 'source.icon_url',
  'source.openstat', 'geo.country', 'geo.region', 'geo.city', 'icon_url', 'geo.icon_url', 'country_iso',
  'geo.country_iso', 'cost',
]);
/** Visit ids the sandbox hands out itself start above the demo range ('1000001'..'1002000'). */
const VISIT_ID_BASE = 2_000_000;

@Injectable()
export class VisitsService {
  constructor(
    @InjectSandboxDataSource() private readonly dataSource: DataSource,
    private readonly lock: SandboxWriteLock,
    private readonly budget: SandboxBudgetService,
    private readonly orders: WaitingOrders,
  ) {}

  /**
   * Visit list: dotted filters, not-filterable fields rejected, `limit` at most 10,000 (400 above), 1/s and 15/min.
   * The visits are read in chunks (date, id order) and the page leaves chunk by chunk (writeJsonList): a request holds
   * one chunk, whatever the project's size and the limit. The checks run before the first chunk.
   */
  listChunks(projectId: number, body: Json): { chunks: AsyncIterable<VisitRecord[]>; count: ScanCount } {
    const clauses = parseFilters(body.filters).map(checkFilterable);
    const limit = optionalInteger(body, 'limit') ?? DEFAULT_VISIT_LIMIT;
    checkLimit(limit, 'visits');
    const offset = optionalInteger(body, 'offset') ?? 0;
    this.budget.chargeOperation(projectId, 'visit list', [{ max: 1, windowMs: 1000 }, { max: 15, windowMs: 60_000 }]);
    const count: ScanCount = { total: 0 };
    const scan = scanMatches(
      (after: { date: string; id: string } | null) => this.visitChunk(projectId, after),
      (visit) => ({ date: visit.date, id: visit.id }),
      (visit) => matchesAll(visit, clauses), offset, limit, count);
    const withOrders = async function* (this: VisitsService) {
      for await (const visits of scan) {
        await this.attachOrderIds(projectId, visits);
        yield visits;
      }
    }.call(this);
    return { chunks: withOrders, count };
  }

  /** The visit list collected in memory (listChunks, for callers that need the records). */
  async list(projectId: number, body: Json): Promise<{ data: VisitRecord[]; total: number; status: 'success' }> {
    const { chunks, count } = this.listChunks(projectId, body);
    const data: VisitRecord[] = [];
    for await (const visits of chunks) data.push(...visits);
    return { data, total: count.total, status: 'success' };
  }

  /** Sets tracker_paramN (N 1..50) of a visit; null clears a value. */
  updateParams(projectId: number, body: Json): Promise<void> {
    const visitId = body.visit;
    if (visitId === undefined || visitId === null || visitId === '') throw badRequest('visit', 'visit: required visit id is missing');
    if (typeof visitId !== 'string' && typeof visitId !== 'number') throw badRequest('visit', 'visit: must be a string');
    const changes = readParamChanges(body);
    return this.lock.run(async () => {
      const visit = (await this.getMany(projectId, [String(visitId)])).get(String(visitId));
      if (!visit) throw notFound(`visit ${visitId}`);
      for (const [n, value] of changes) {
        visit.tracker_params[String(n)] = value;
        if (n <= 5) (visit as unknown as Record<string, unknown>)[`tracker_param${n}`] = value;
      }
      await this.dataSource.query('UPDATE sb_visit SET data = ? WHERE project_id = ? AND id = ?',
        [JSON.stringify(visit), projectId, visit.id]);
    });
  }

  /**
   * Stores visits (the service records them from its tracking code; the sandbox takes them here)
   * and then writes the orders that were waiting for them.
   */
  async addVisits(projectId: number, items: VisitOverrides[]): Promise<VisitRecord[]> {
    const visits = await this.lock.run(() => this.dataSource.transaction(async (manager) => {
      const built: VisitRecord[] = [];
      for (const item of items) built.push(await this.completeVisit(manager, item));
      await insertVisits(manager, projectId, built);
      return built;
    }));
    await this.orders.releaseWaitingOrders(projectId, visits.map((visit) => visit.id));
    return visits;
  }

  async getMany(projectId: number, ids: string[]): Promise<Map<string, VisitRecord>> {
    const rows = await selectIn<{ data: string }>(this.dataSource.manager,
      'SELECT data FROM sb_visit WHERE project_id = ? AND id', [projectId], [...new Set(ids)]);
    return new Map(rows.map((row) => JSON.parse(row.data) as VisitRecord).map((visit) => [visit.id, visit]));
  }

  /** The client's chain: visits sharing the first visit, oldest first. */
  async chain(projectId: number, firstVisitId: string): Promise<VisitRecord[]> {
    const rows = await this.dataSource.query(
      'SELECT data FROM sb_visit WHERE project_id = ? AND first_visit_id = ? ORDER BY date, id', [projectId, firstVisitId],
    ) as { data: string }[];
    return rows.map((row) => JSON.parse(row.data) as VisitRecord);
  }

  /** Fills `order_ids` from the orders whose `tracker` names the visit. */
  async attachOrderIds(projectId: number, visits: VisitRecord[]): Promise<void> {
    const rows = await selectIn<{ id: string; tracker: string }>(this.dataSource.manager,
      'SELECT id, tracker FROM sb_order WHERE project_id = ? AND tracker', [projectId], visits.map((visit) => visit.id));
    const byVisit = new Map<string, string[]>();
    for (const row of rows) byVisit.set(row.tracker, [...(byVisit.get(row.tracker) ?? []), row.id]);
    for (const visit of visits) visit.order_ids = byVisit.get(visit.id) ?? [];
  }

  /** The next SCAN_CHUNK visits in (date, id) order after `after`. */
  private async visitChunk(projectId: number, after: { date: string; id: string } | null): Promise<VisitRecord[]> {
    const rows = (after
      ? await this.dataSource.query(
        'SELECT data FROM sb_visit WHERE project_id = ? AND (date > ? OR (date = ? AND id > ?)) ORDER BY date, id LIMIT ?',
        [projectId, after.date, after.date, after.id, SCAN_CHUNK])
      : await this.dataSource.query('SELECT data FROM sb_visit WHERE project_id = ? ORDER BY date, id LIMIT ?', [projectId, SCAN_CHUNK])
    ) as { data: string }[];
    return rows.map((row) => JSON.parse(row.data) as VisitRecord);
  }

  private async completeVisit(manager: EntityManager, item: VisitOverrides): Promise<VisitRecord> {
    const id = item.id !== undefined ? String(item.id) : String(VISIT_ID_BASE + await nextCounterValue(manager, 'visit'));
    const variant = Number(id.replace(/\D/g, '').slice(-6) || '0');
    return buildVisit(id, item.date ?? serviceTimestamp(), variant, { ...item, id, first_visit_id: item.first_visit_id ?? id });
  }
}

/** Bulk insert (or replace) of complete visits. */
export async function insertVisits(manager: EntityManager, projectId: number, visits: VisitRecord[]): Promise<void> {
  await bulkUpsert(manager, 'sb_visit', ['project_id', 'id', 'date', 'first_visit_id', 'data'],
    visits.map((visit) => [projectId, visit.id, visit.date, visit.first_visit_id, JSON.stringify(visit)]),
    ['project_id', 'id'], ['date', 'first_visit_id', 'data']);
}

function checkFilterable(clause: FilterClause, index: number): FilterClause {
  const top = clause.field.split('.')[0];
  if (NOT_FILTERABLE.has(clause.field) || top === 'device') {
    throw badRequest(`filters[${index}]`, `filters[${index}]: field ${clause.field} is not filterable in the visit list`);
  }
  if (clause.field === 'date' || clause.field.endsWith('.date')) {
    const value = Array.isArray(clause.value) ? clause.value.map(normalizeDateBound) : normalizeDateBound(clause.value);
    return { ...clause, value };
  }
  return clause;
}

function readParamChanges(body: Json): [number, string | null][] {
  const changes: [number, string | null][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'visit') continue;
    const match = /^tracker_param(\d+)$/.exec(key);
    if (!match) throw badRequest(key, `${key}: unknown field; only visit and tracker_param1..${TRACKER_PARAM_COUNT} are accepted`);
    const n = Number(match[1]);
    if (n < 1 || n > TRACKER_PARAM_COUNT) throw badRequest(key, `${key}: N must be from 1 to ${TRACKER_PARAM_COUNT}`);
    if (value !== null && typeof value !== 'string') throw badRequest(key, `${key}: must be a string or null`);
    changes.push([n, value]);
  }
  return changes;
}
