import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SandboxApiKeyEntity } from '../storage/api-key.entity';
import { nextCounterValue } from '../storage/document-store';
import { SandboxOrderStatusEntity } from '../storage/order-status.entity';
import { SandboxProjectEntity } from '../storage/project.entity';
import { InjectSandboxDataSource } from '../storage/sandbox-data-source';
import { plainTimestamp } from '../storage/timestamps';
import { SandboxTrackingCodeEntity } from '../storage/tracking-code.entity';
import { SandboxWriteLock } from '../storage/write-lock';
import { ApiKeyRegistry } from '../auth/api-key-registry';
import { DEFAULT_ORDER_STATUSES } from './default-statuses';

export interface CreatedProject {
  project_id: number;
  counter: { id: string; code: string };
}

@Injectable()
export class ProjectsService {
  constructor(
    @InjectSandboxDataSource() private readonly dataSource: DataSource,
    private readonly lock: SandboxWriteLock,
    private readonly keys: ApiKeyRegistry,
  ) {}

  /** Projects the key may access, in the service's Project shape. */
  async listForKey(apiKey: string): Promise<Record<string, unknown>[]> {
    const key = await this.dataSource.getRepository(SandboxApiKeyEntity).findOneByOrFail({ key: apiKey });
    if (key.projects.length === 0) return [];
    const projects = await this.dataSource.getRepository(SandboxProjectEntity)
      .createQueryBuilder('p').where('p.id IN (:...ids)', { ids: key.projects }).orderBy('p.id').getMany();
    return projects.map((project) => ({
      id: project.id, name: project.name, profit: project.profit, creation_date: project.creationDate,
      currency: project.currency, is_owner: project.isOwner,
    }));
  }

  /** Creates a project owned by the key, with the default statuses and a tracking code. */
  async create(apiKey: string, name: string, currency: string): Promise<CreatedProject> {
    const created = await this.lock.run(() => this.dataSource.transaction((manager) => createProject(manager, { apiKey, name, currency })));
    this.keys.forget(apiKey);
    return created;
  }

  async trackingCodes(projectId: number): Promise<{ id: string; code: string }[]> {
    const rows = await this.dataSource.getRepository(SandboxTrackingCodeEntity).findBy({ projectId });
    return rows.map((row) => ({ id: row.id, code: row.code }));
  }
}

/** Inserts a project (and its statuses, tracking code, key access) inside the caller's transaction. */
export async function createProject(
  manager: EntityManager,
  input: { apiKey: string; name: string; currency: string; id?: number },
): Promise<CreatedProject> {
  const id = input.id ?? await nextFreeProjectId(manager);
  await manager.insert(SandboxProjectEntity, {
    id, name: input.name, currency: input.currency, profit: null, creationDate: plainTimestamp(), isOwner: 1,
  });
  await manager.insert(SandboxOrderStatusEntity, DEFAULT_ORDER_STATUSES.map((status) => ({ projectId: id, ...status })));
  const counter = { id: String(100000 + id), code: trackingSnippet(100000 + id) };
  await manager.insert(SandboxTrackingCodeEntity, { id: counter.id, projectId: id, code: counter.code });
  await grantProject(manager, input.apiKey, id);
  return { project_id: id, counter };
}

export async function grantProject(manager: EntityManager, apiKey: string, projectId: number): Promise<void> {
  const existing = await manager.findOneBy(SandboxApiKeyEntity, { key: apiKey });
  const projects = [...new Set([...(existing?.projects ?? []), projectId])];
  await manager.save(SandboxApiKeyEntity, { key: apiKey, projects });
}

async function nextFreeProjectId(manager: EntityManager): Promise<number> {
  const [{ maxId }] = await manager.query('SELECT MAX(id) AS maxId FROM sb_project') as { maxId: number | null }[];
  const candidate = await nextCounterValue(manager, 'project');
  return Math.max(candidate, (maxId ?? 0) + 1);
}

function trackingSnippet(counterId: number): string {
  return `<script>(function(w,d,s){var t=d.createElement(s);t.async=1;`
    + `t.src='http://127.0.0.1/sandbox/tracker.js?counter=${counterId}';d.head.appendChild(t);})(window,document,'script');</script>`;
}
