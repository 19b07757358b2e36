import type { StreamName } from 'tracker-sync/connector';
import { clientMapper } from './clients';
import { dealMapper } from './deals';
import { eventMapper } from './events';
import { expenseMapper } from './expenses';
import { leadMapper } from './leads';
import { managerMapper } from './managers';
import { mediaPlanMapper } from './mediaplans';
import type { RowMapperFactory } from './row-mapper';

export const ROW_MAPPERS: Record<StreamName, RowMapperFactory> = {
  deals: dealMapper,
  clients: clientMapper,
  managers: managerMapper,
  expenses: expenseMapper,
  mediaplans: mediaPlanMapper,
  leads: leadMapper,
  events: eventMapper,
};

/** streams whose rows may carry an updated_at usable as a cursor */
export const UPDATABLE_STREAMS: ReadonlySet<StreamName> = new Set<StreamName>(['deals', 'clients']);
