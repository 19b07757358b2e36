import type { StreamName } from '../../../connectors/canonical';
import { clientsHandler } from './clients';
import { dealsHandler } from './deals';
import { eventsHandler } from './events';
import { expensesHandler } from './expenses';
import { leadsHandler } from './leads';
import { managersHandler } from './managers';
import { mediaplansHandler } from './mediaplans';
import type { MappingVersions, StreamHandler } from './stream-handler';

export type { BatchAnswer, HandlerContext, MappingVersions, OutgoingItem, StreamHandler } from './stream-handler';

/** Every stream the engine sends: one handler each (./<stream>.ts, over its mapping in mappings/<stream>.ts), listed here once. */
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
