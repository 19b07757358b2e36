import type { Client } from '../../connectors/canonical';
import { checkImportClient } from '../../tracker/payload-checks';
import type { ImportClient } from '../../tracker/types/clients.types';
import { CLIENT_MAPPING_VERSION, clientToImportClient } from '../mapping/client.mapping';
import type { StreamHandler } from '../stream-handlers';

export const clientsHandler: StreamHandler<Client, ImportClient> = {
  stream: 'clients',
  mappingVersion: CLIENT_MAPPING_VERSION,
  toPayload: clientToImportClient,
  check: (client) => checkImportClient(client),
  concurrent: true,
  async send(ctx, items) {
    await ctx.tracker.clients.importBatch(items.map((i) => i.payload));
    return { refused: [] };
  },
};
