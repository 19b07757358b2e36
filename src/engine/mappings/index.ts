import type { StreamName } from '../../connectors/canonical';
import { clientsMapping } from './clients';
import { dealsMapping } from './deals';
import { eventsMapping } from './events';
import { expensesMapping } from './expenses';
import { leadsMapping } from './leads';
import { managersMapping } from './managers';
import { mediaplansMapping } from './mediaplans';
import type { StreamMapping } from './stream-mapping';

/** Every stream's mapping by name, without its handler: what a read on a worker thread loads (offload/read-worker.ts). */
const MAPPINGS: Record<StreamName, StreamMapping> = {
  managers: managersMapping,
  clients: clientsMapping,
  deals: dealsMapping,
  expenses: expensesMapping,
  mediaplans: mediaplansMapping,
  leads: leadsMapping,
  events: eventsMapping,
};

export function streamMapping(stream: StreamName): StreamMapping {
  return MAPPINGS[stream];
}
