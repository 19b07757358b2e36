import { DataSource, EntityManager, In, Not } from 'typeorm';
import { OpenRejectionEntity } from '../entities/open-rejection.entity';
import { openRejectionKey } from '../open-rejection-key';
import type { OpenRejectionRow } from '../records';
import { andOfProjects, inProject, ProjectConnections } from '../project-rows';
import type { NewRejection } from '../checkpoint-writer';
import type { Page } from './rejected-record.store';

/** keys per IN list: well below SQLite's and PostgreSQL's bound-parameter limits */
const KEYS_PER_QUERY = 900;
/** 12 columns a row: 1,200 parameters a statement */
const ROWS_PER_UPSERT = 100;

/**
 * The standing set of open rejections (`open_rejection`, OpenRejectionRow). A stream reads its keys once as it starts; every
 * change is written inside a checkpoint's transaction, with the acknowledgements and rejections that cause it.
 */
export class OpenRejectionStore {
  constructor(private readonly dataSource: DataSource) {}

  /** The record keys open for one stream of a connection. */
  async keys(connectionId: string, stream: string): Promise<Set<string>> {
    const rows = await this.dataSource.getRepository(OpenRejectionEntity).find({
      select: { record_key: true },
      where: { connection_id: connectionId, stream },
    });
    return new Set(rows.map((r) => r.record_key));
  }

  /**
   * A connection's open rejections (one stream's, if given): per stream, oldest first; and how many there are. With
   * `project`, those its runs in that project rejected (the one it feeds now: project-rows.ts).
   */
  async pageOf(connectionId: string, stream: string | undefined, page: Page, project?: string): Promise<{ rows: OpenRejectionRow[]; total: number }> {
    const query = this.dataSource.getRepository(OpenRejectionEntity).createQueryBuilder('o').where({ connection_id: connectionId, ...(stream ? { stream } : {}) });
    if (project !== undefined) andOfProjects(query, 'o', inProject(connectionId, project), 'last_run_id');
    const [rows, total] = await query
      .orderBy('o.stream', 'ASC').addOrderBy('o.first_seen', 'ASC').addOrderBy('o.record_key', 'ASC').addOrderBy('o.field', 'ASC')
      .limit(page.limit).offset(page.offset)
      .getManyAndCount();
    return { rows, total };
  }

  /**
   * How many open rejections each of these connections has (those with none are left out), in one query per
   * KEYS_PER_QUERY ids; with `projects`, those its runs in the project it has now rejected (project-rows.ts).
   */
  async countsOf(connectionIds: readonly string[], projects?: ProjectConnections): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (let i = 0; i < connectionIds.length; i += KEYS_PER_QUERY) {
      const query = this.dataSource.getRepository(OpenRejectionEntity).createQueryBuilder('o')
        .select('o.connection_id', 'connection_id').addSelect('COUNT(*)', 'count')
        .where({ connection_id: In(connectionIds.slice(i, i + KEYS_PER_QUERY)) });
      if (projects) andOfProjects(query, 'o', projects, 'last_run_id');
      const rows = await query.groupBy('o.connection_id').getRawMany<{ connection_id: string; count: string | number }>();
      for (const row of rows) counts.set(row.connection_id, Number(row.count));
    }
    return counts;
  }

  /**
   * Rejections enter the set, or update it: reason, ref and last_seen move; first_seen stays that of the record
   * (its earliest open problem). One stream's rejections, all rejected by `runId`.
   */
  static async record(m: EntityManager, runId: number, rejections: NewRejection[], at: string): Promise<void> {
    if (!rejections.length) return;
    const { connection_id, stream } = rejections[0];
    const rows = new Map<string, OpenRejectionRow>();
    for (const r of rejections) {
      const key = openRejectionKey(r);
      const id = `${key}\n${r.field}`;
      const earlier = rows.get(id); // one field failing twice in one go: both reasons
      const reason = earlier && earlier.reason !== r.reason ? `${earlier.reason}; ${r.reason}` : r.reason;
      rows.set(id, {
        connection_id, stream, record_key: key, field: r.field, external_id: r.external_id, ref: r.ref, reason,
        excerpt: r.excerpt, source: r.source, first_seen: at, last_seen: at, last_run_id: runId,
      });
    }
    const values = [...rows.values()];
    const firstSeen = await OpenRejectionStore.firstSeen(m, connection_id, stream, [...new Set(values.map((v) => v.record_key))]);
    for (const v of values) v.first_seen = firstSeen.get(v.record_key) ?? at;
    const repo = m.getRepository(OpenRejectionEntity);
    for (let i = 0; i < values.length; i += ROWS_PER_UPSERT) {
      await repo.upsert(values.slice(i, i + ROWS_PER_UPSERT), { conflictPaths: ['connection_id', 'stream', 'record_key', 'field'], skipUpdateIfNoValuesChanged: false });
    }
  }

  /**
   * The rows of these keys that earlier runs wrote go: the service now holds the record, or this run rejected
   * it anew (its open problems are the ones this run wrote).
   */
  static async dropEarlier(m: EntityManager, connectionId: string, stream: string, runId: number, keys: string[]): Promise<void> {
    const repo = m.getRepository(OpenRejectionEntity);
    for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
      await repo.delete({ connection_id: connectionId, stream, last_run_id: Not(runId), record_key: In(keys.slice(i, i + KEYS_PER_QUERY)) });
    }
  }

  /**
   * A complete read of the stream ended: what it did not reject again is gone from the source (or was sent),
   * except `kept` (records the run saw but left for the next run).
   */
  static async closeGone(m: EntityManager, connectionId: string, stream: string, runId: number, kept: readonly string[]): Promise<void> {
    const repo = m.getRepository(OpenRejectionEntity);
    if (!kept.length) {
      await repo.delete({ connection_id: connectionId, stream, last_run_id: Not(runId) });
      return;
    }
    const earlier = await repo.find({ select: { record_key: true }, where: { connection_id: connectionId, stream, last_run_id: Not(runId) } });
    const keep = new Set(kept);
    const gone = [...new Set(earlier.map((r) => r.record_key))].filter((key) => !keep.has(key));
    await OpenRejectionStore.dropEarlier(m, connectionId, stream, runId, gone);
  }

  private static async firstSeen(m: EntityManager, connectionId: string, stream: string, keys: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
      const rows = await m.getRepository(OpenRejectionEntity)
        .createQueryBuilder('o')
        .select('o.record_key', 'record_key')
        .addSelect('MIN(o.first_seen)', 'first_seen')
        .where({ connection_id: connectionId, stream, record_key: In(keys.slice(i, i + KEYS_PER_QUERY)) })
        .groupBy('o.record_key')
        .getRawMany<{ record_key: string; first_seen: string }>();
      for (const row of rows) found.set(row.record_key, row.first_seen);
    }
    return found;
  }
}
