import { DataSource, EntityManager, FindOptionsWhere, In } from 'typeorm';
import { LeaseEntity } from '../entities/lease.entity';
import { RunEntity } from '../entities/run.entity';
import { isoNow } from '../iso-time';
import { RunRow, toRunRow } from '../records';
import { SerialWriter } from '../serial-writer';
import { isDeadLocalHolder } from './lease.store';
import { andOfProjects, ProjectConnections, whereOfProjects } from '../project-rows';
import type { Page } from './rejected-record.store';
import { directionOf, OutboundFlowName, RunDirection, RunMode, RunStatus, RunTrigger, ServiceCounters, StreamCounters } from '../../runs/run-vocabulary';

export interface NewRun {
  connectionId: string;
  mode: RunMode;
  since: string | null;
  trigger: RunTrigger;
  holder: string;
  /** the project (its name in the config) the connection feeds as the run starts (the engine always says; a bare store may not) */
  project?: string;
}

export interface RunFilter {
  connectionId?: string;
  /** runs of these connections only (an empty list: none) */
  connectionIds?: readonly string[];
  status?: RunStatus;
  /** syncs only, or outbound runs only (of `flow`, when given) */
  direction?: RunDirection;
  flow?: OutboundFlowName;
  /** the runs of these projects only (project-rows.ts; instead of connectionIds): a connection's runs made in another project are left out */
  projects?: ProjectConnections;
}

/** Run rows: created 'running', counters written by checkpoints, finished once; handed out as plain RunRows. */
export class RunStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  async create(run: NewRun): Promise<RunRow> {
    const saved = await this.writer.run((m) =>
      m.getRepository(RunEntity).save({
        connection_id: run.connectionId,
        mode: run.mode,
        ...directionOf(run.mode),
        since: run.since,
        trigger: run.trigger,
        holder: run.holder,
        project: run.project ?? null,
        started_at: isoNow(),
        finished_at: null,
        status: 'running',
        streams: {},
        error: null,
      }),
    );
    return toRunRow(saved as RunEntity);
  }

  /** Inside a checkpoint's transaction: the run's counters so far. */
  static async writeCounters(
    m: EntityManager,
    runId: number,
    streams: Partial<Record<string, StreamCounters>>,
    counters: ServiceCounters,
  ): Promise<void> {
    await m.getRepository(RunEntity).update({ id: runId }, { streams: { ...streams }, ...counters });
  }

  /** Inside a transaction: an outbound run's counters so far. */
  static async writeFlowCounters(m: EntityManager, runId: number, counters: Record<string, number>): Promise<void> {
    await m.getRepository(RunEntity).update({ id: runId }, { flow_counters: { ...counters } });
  }

  async finish(runId: number, status: RunStatus, error: string | null): Promise<void> {
    await this.writer.run((m) =>
      m.getRepository(RunEntity).update({ id: runId }, { status, error, finished_at: isoNow() }),
    );
  }

  async get(runId: number): Promise<RunRow | null> {
    const row = await this.dataSource.getRepository(RunEntity).findOneBy({ id: runId });
    return row ? toRunRow(row) : null;
  }

  /** Newest first, and how many match. */
  async page(filter: RunFilter, page: Page): Promise<{ rows: RunRow[]; total: number }> {
    const where = whereOf(filter);
    if (!where) return { rows: [], total: 0 };
    const [rows, total] = await this.dataSource.getRepository(RunEntity).findAndCount({ where, order: { id: 'DESC' }, take: page.limit, skip: page.offset });
    return { rows: rows.map(toRunRow), total };
  }

  /** The connection's newest run (of a direction or flow, when asked), or null. */
  async latestOf(connectionId: string, filter: Omit<RunFilter, 'connectionId'> = {}): Promise<RunRow | null> {
    const where = whereOf({ ...filter, connectionId });
    const row = where && (await this.dataSource.getRepository(RunEntity).findOne({ where, order: { id: 'DESC' } }));
    return row ? toRunRow(row) : null;
  }

  /** The newest run of each of these connections (of a direction or flow, when asked), in one query per 500 ids. */
  async latestOfEach(connectionIds: readonly string[], filter: Omit<RunFilter, 'connectionId' | 'connectionIds'> = {}): Promise<RunRow[]> {
    const repo = this.dataSource.getRepository(RunEntity);
    const found: RunRow[] = [];
    const { projects, ...plain } = filter;
    for (let i = 0; i < connectionIds.length; i += 500) {
      const newest = repo.createQueryBuilder('r').select('MAX(r.id)').where({ ...plainWhereOf(plain), connection_id: In(connectionIds.slice(i, i + 500)) });
      if (projects) andOfProjects(newest, 'r', projects);
      newest.groupBy('r.connection_id');
      const rows = await repo.createQueryBuilder('run').where(`run.id IN (${newest.getQuery()})`).setParameters(newest.getParameters()).getMany();
      found.push(...rows.map(toRunRow));
    }
    return found;
  }

  /** Once this process holds the lease, any other 'running' run of the connection is dead. */
  async interruptOthers(connectionId: string, exceptRunId: number): Promise<number> {
    const result = await this.writer.run((m) =>
      m.createQueryBuilder().update(RunEntity)
        .set({ status: 'interrupted', finished_at: isoNow(), error: 'the process running it ended (interrupted)' })
        .where('connection_id = :connectionId AND status = :running AND id <> :id', { connectionId, running: 'running', id: exceptRunId })
        .execute(),
    );
    return result.affected ?? 0;
  }

  /**
   * Start-up recovery: runs left 'running' whose holder is gone (dead local process, or its lease
   * expired or taken by someone else) become 'interrupted'. Runs of `liveRunIds` (this process) are kept.
   */
  async recoverInterrupted(liveRunIds: ReadonlySet<number>): Promise<number[]> {
    const running = await this.dataSource.getRepository(RunEntity).findBy({ status: 'running' });
    if (running.length === 0) return [];
    const leases = await this.dataSource.getRepository(LeaseEntity).findBy({
      connection_id: In([...new Set(running.map((r) => r.connection_id))]),
    });
    const leaseOf = new Map(leases.map((l) => [l.connection_id, l]));
    const now = isoNow();
    const dead = running.filter((run) => {
      if (liveRunIds.has(run.id)) return false;
      const lease = leaseOf.get(run.connection_id);
      const leaseIsLive = lease && lease.holder === run.holder && lease.expires_at >= now && !isDeadLocalHolder(lease.holder);
      return !leaseIsLive;
    });
    if (dead.length === 0) return [];
    const ids = dead.map((r) => r.id);
    await this.writer.run((m) =>
      m.getRepository(RunEntity).update(
        { id: In(ids), status: 'running' },
        { status: 'interrupted', finished_at: now, error: 'the process running it ended (interrupted)' },
      ),
    );
    return ids;
  }
}

/** The filter as find options; null when it matches nothing. */
function whereOf(filter: RunFilter): FindOptionsWhere<RunEntity> | FindOptionsWhere<RunEntity>[] | null {
  if (filter.connectionIds && !filter.connectionIds.length) return null;
  const where = plainWhereOf(filter);
  if (!filter.projects) return where;
  // one connection asked for: of the projects, the one that has it now
  const projects = filter.connectionId
    ? new Map([...filter.projects].filter(([, ids]) => ids.includes(filter.connectionId!)).map(([name]) => [name, [filter.connectionId!]]))
    : filter.projects;
  return whereOfProjects<RunEntity>(where, projects);
}

/** The filter but its projects. */
function plainWhereOf(filter: Omit<RunFilter, 'projects'>): FindOptionsWhere<RunEntity> {
  const where: FindOptionsWhere<RunEntity> = {};
  if (filter.connectionId) where.connection_id = filter.connectionId;
  if (filter.connectionIds) {
    // both given: the one connection when the list holds it, else nothing
    const ids = filter.connectionId ? filter.connectionIds.filter((id) => id === filter.connectionId) : filter.connectionIds;
    where.connection_id = In(ids.length ? [...ids] : ['']);
  }
  if (filter.status) where.status = filter.status;
  if (filter.direction) where.direction = filter.direction;
  if (filter.flow) where.flow = filter.flow;
  return where;
}
