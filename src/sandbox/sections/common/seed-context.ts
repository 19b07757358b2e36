import type { SandboxDocumentStore } from '../../storage/document-store';
import { DEMO_VISIT_COUNT, DEMO_VISIT_FIRST_ID } from '../../visits/demo-visit-ids';

/** What every section seed gets: the store, the project, a fixed "now" and demo visit ids. */
export interface SeedContext {
  store: SandboxDocumentStore;
  project: number;
  now: Date;
  /** The n-th demo visit id (the core seeds '1000001'..'1002000'); wraps around. */
  visitId(n: number): string;
}

export function seedContext(store: SandboxDocumentStore, project: number, now = new Date()): SeedContext {
  return {
    store, project, now,
    visitId: (n) => String(DEMO_VISIT_FIRST_ID + (((n % DEMO_VISIT_COUNT) + DEMO_VISIT_COUNT) % DEMO_VISIT_COUNT)),
  };
}
