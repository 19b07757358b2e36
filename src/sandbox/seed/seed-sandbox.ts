import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import { createProject, grantProject } from '../projects/projects.service';
import type { SandboxOptions } from '../sandbox-options';
import type { SandboxInfoData } from '../sandbox-info';
import { SandboxApiKeyEntity } from '../storage/api-key.entity';
import { SandboxCounterEntity } from '../storage/counter.entity';
import type { SandboxDocumentStore } from '../storage/document-store';
import { SandboxProjectEntity } from '../storage/project.entity';
import { insertVisits } from '../visits/visits.service';
import type { VisitsService } from '../visits/visits.service';
import { demoVisits } from './demo-visits';

export const DEMO_PROJECT_ID = 1;
const DEMO_SEEDED = 'seed:demo';

type SeedSections = (store: SandboxDocumentStore, projectId: number) => Promise<void>;

/**
 * Makes the sandbox usable: project 1 (RUB) with a key always exists (the given key, else a
 * generated one, kept across restarts), and projects 2..`projects` owned by the same key (an agency's
 * clients; a database from a start with fewer gains the missing ones); seed 'demo' adds 2,000 visits and
 * the sections' demo documents to project 1 only, once per database.
 */
export async function seedSandbox(input: {
  dataSource: DataSource; store: SandboxDocumentStore; visits: VisitsService; options: SandboxOptions;
}): Promise<SandboxInfoData> {
  const { dataSource, store, options } = input;
  const apiKey = await dataSource.transaction(async (manager) => {
    const key = await ensureDemoProject(manager, options.apiKey);
    await ensureMoreProjects(manager, key, options.projects ?? 1);
    return key;
  });
  if (options.seed === 'demo') {
    const fresh = await dataSource.transaction(async (manager) => {
      if (await manager.findOneBy(SandboxCounterEntity, { name: DEMO_SEEDED })) return false;
      await insertVisits(manager, DEMO_PROJECT_ID, demoVisits());
      await manager.save(SandboxCounterEntity, { name: DEMO_SEEDED, value: 1 });
      return true;
    });
    if (fresh) await seedSectionsIfPresent(store);
  }
  return { projectId: DEMO_PROJECT_ID, apiKey };
}

async function ensureDemoProject(manager: EntityManager, givenKey: string | undefined): Promise<string> {
  const project = await manager.findOneBy(SandboxProjectEntity, { id: DEMO_PROJECT_ID });
  if (!project) {
    const apiKey = givenKey ?? generateKey();
    await createProject(manager, { apiKey, name: 'Demo project', currency: 'RUB', id: DEMO_PROJECT_ID });
    return apiKey;
  }
  if (givenKey) {
    await grantProject(manager, givenKey, DEMO_PROJECT_ID);
    return givenKey;
  }
  const keys = await manager.find(SandboxApiKeyEntity);
  const existing = keys.find((key) => key.projects.includes(DEMO_PROJECT_ID));
  if (existing) return existing.key;
  const apiKey = generateKey();
  await grantProject(manager, apiKey, DEMO_PROJECT_ID);
  return apiKey;
}

/** Projects 2..count, each with its statuses and tracking code, all granted to the sandbox's key. */
async function ensureMoreProjects(manager: EntityManager, apiKey: string, count: number): Promise<void> {
  if (count <= DEMO_PROJECT_ID) return;
  const ids = Array.from({ length: count - DEMO_PROJECT_ID }, (_, i) => DEMO_PROJECT_ID + 1 + i);
  const existing = new Set((await manager.findBy(SandboxProjectEntity, { id: In(ids) })).map((project) => project.id));
  for (const id of ids) {
    if (existing.has(id)) await grantProject(manager, apiKey, id);
    else await createProject(manager, { apiKey, name: `Project ${id}`, currency: 'RUB', id });
  }
}

function generateKey(): string {
  return `sb_${randomBytes(16).toString('hex')}`;
}

/** The sections helper may export `seedSections(store, projectId)` from sections/seed.ts. */
async function seedSectionsIfPresent(store: SandboxDocumentStore): Promise<void> {
  let seedSections: SeedSections | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    seedSections = (require('../sections/seed') as { seedSections?: SeedSections }).seedSections;
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
  }
  if (seedSections) await seedSections(store, DEMO_PROJECT_ID);
}
