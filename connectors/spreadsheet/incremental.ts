import type { StreamName } from 'tracker-sync/connector';
import { UPDATABLE_STREAMS } from './mapping/mappers';
import type { SheetSource } from './settings';

/**
 * Whether a stream reads only the rows updated since its cursor: only when its settings say `incremental: true`
 * (deals, clients). By default every row of a changed file is compared with what the service acknowledged (the
 * engine's fingerprints), whatever its updated_at says: a price or status edited by hand without touching
 * updated_at still arrives, and an unchanged file costs one hash. The opt-in is for files too large to compare
 * whole on every change; it skips every row whose updated_at (or created_at) is before the cursor.
 */
export function isIncremental(stream: StreamName, source: SheetSource): boolean {
  return UPDATABLE_STREAMS.has(stream) && source.incremental === true;
}
