import type { Client } from '../../../connectors/canonical';
import type { ImportClient } from '../../../tracker/types/clients.types';
import { clientsMapping } from '../../mappings/clients';
import { batchBody } from './payload-bytes';
import type { StreamHandler } from './stream-handler';

export const clientsHandler: StreamHandler<Client, ImportClient> = {
  ...clientsMapping,
  concurrent: true,
  sendsBytes: true,
  async send(ctx, items) {
    await ctx.tracker.clients.importBatch(batchBody(items.map((i) => i.payload)));
    return { refused: [] };
  },
};
