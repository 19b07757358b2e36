import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SandboxCounterEntity } from './counter.entity';
import { SandboxDocumentEntity } from './document.entity';
import { InjectSandboxDataSource } from './sandbox-data-source';
import { serviceTimestamp } from './timestamps';
import { SandboxWriteLock } from './write-lock';

export type StoredDocument<T> = T & { id: string };

/**
 * JSON documents per project and kind. Ids not given by the caller are taken from a counter per
 * kind ('1', '2', ...), shared by all projects so that an id never points into two projects.
 */
@Injectable()
export class SandboxDocumentStore {
  constructor(
    @InjectSandboxDataSource() private readonly dataSource: DataSource,
    private readonly lock: SandboxWriteLock,
  ) {}

  /** Inserts a document (or replaces the one with the same id, keeping its creation time). */
  insert<T extends object>(project: number, kind: string, data: T, id?: string): Promise<StoredDocument<T>> {
    return this.lock.run(() => this.dataSource.transaction(async (manager) => {
      const docId = id ?? await freeDocumentId(manager, project, kind);
      const now = serviceTimestamp();
      const stored = { ...data, id: docId } as StoredDocument<T>;
      const existing = await manager.findOneBy(SandboxDocumentEntity, { projectId: project, kind, docId });
      if (existing) {
        await manager.update(SandboxDocumentEntity, { pk: existing.pk }, { data: JSON.stringify(stored), updatedAt: now });
      } else {
        await manager.insert(SandboxDocumentEntity, {
          projectId: project, kind, docId, data: JSON.stringify(stored), createdAt: now, updatedAt: now,
        });
      }
      return stored;
    }));
  }

  async get<T extends object>(project: number, kind: string, id: string): Promise<StoredDocument<T> | null> {
    const row = await this.repository().findOneBy({ projectId: project, kind, docId: String(id) });
    return row ? (JSON.parse(row.data) as StoredDocument<T>) : null;
  }

  async list<T extends object>(project: number, kind: string, where?: (doc: StoredDocument<T>) => boolean):
  Promise<StoredDocument<T>[]> {
    const rows = await this.repository().find({ where: { projectId: project, kind }, order: { pk: 'ASC' } });
    const docs = rows.map((row) => JSON.parse(row.data) as StoredDocument<T>);
    return where ? docs.filter(where) : docs;
  }

  update<T extends object>(project: number, kind: string, id: string, patch: Partial<T>):
  Promise<StoredDocument<T> | null> {
    return this.lock.run(async () => {
      const repository = this.repository();
      const row = await repository.findOneBy({ projectId: project, kind, docId: String(id) });
      if (!row) return null;
      const updated = { ...JSON.parse(row.data), ...patch, id: row.docId } as StoredDocument<T>;
      await repository.update({ pk: row.pk }, { data: JSON.stringify(updated), updatedAt: serviceTimestamp() });
      return updated;
    });
  }

  remove(project: number, kind: string, id: string): Promise<boolean> {
    return this.lock.run(async () => {
      const result = await this.repository().delete({ projectId: project, kind, docId: String(id) });
      return (result.affected ?? 0) > 0;
    });
  }

  private repository() {
    return this.dataSource.getRepository(SandboxDocumentEntity);
  }
}

/** The next counter value of the kind that no document of the project already uses as its id. */
async function freeDocumentId(manager: EntityManager, project: number, kind: string): Promise<string> {
  for (;;) {
    const candidate = String(await nextCounterValue(manager, `document:${kind}`));
    if (!await manager.existsBy(SandboxDocumentEntity, { projectId: project, kind, docId: candidate })) return candidate;
  }
}

/** Next value of a named sequence, inside the caller's transaction. */
export async function nextCounterValue(manager: EntityManager, name: string): Promise<number> {
  const row = await manager.findOneBy(SandboxCounterEntity, { name });
  const value = (row?.value ?? 0) + 1;
  await manager.upsert(SandboxCounterEntity, { name, value }, ['name']);
  return value;
}
