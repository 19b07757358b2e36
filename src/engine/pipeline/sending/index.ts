import type { StreamName } from '../../../connectors/canonical';
import { clientsHandler } from '../../mappings/clients';
import { dealsHandler } from '../../mappings/deals';
import { eventsHandler } from '../../mappings/events';
import { expensesHandler } from '../../mappings/expenses';
import { leadsHandler } from '../../mappings/leads';
import { managersHandler } from '../../mappings/managers';
import { mediaplansHandler } from '../../mappings/mediaplans';
import type { MappingVersions, StreamHandler } from './stream-handler';

export type { BatchAnswer, HandlerContext, MappingVersions, OutgoingItem, StreamHandler } from './stream-handler';

/** Every stream the engine sends: one module each (its mapping and its handler), listed here once. */
const HANDLERS: Record<StreamName, StreamHandler> = {
  managers: managersHandler,
  clients: clientsHandler,
  deals: dealsHandler,
  expenses: expensesHandler,
  mediaplans: mediaplansHandler,
  leads: leadsHandler,
  events: eventsHandler,
};

export function streamHandler(stream: StreamName): StreamHandler {
  return HANDLERS[stream];
}

/** The stream's mapping version: the handler's, unless overridden. */
export function mappingVersionOf(stream: StreamName, overrides?: MappingVersions): number {
  return overrides?.[stream] ?? HANDLERS[stream].mappingVersion;
}
