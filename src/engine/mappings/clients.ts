import type { Client } from '../../connectors/canonical';
import { checkImportClient } from '../../tracker/payload-checks';
import type { ImportClient } from '../../tracker/types/clients.types';
import type { StreamMapping } from './stream-mapping';

/** Bump when a change of the mapping or checks changes what is sent: every client is sent again once. */
export const CLIENT_MAPPING_VERSION = 1;

export const clientsMapping: StreamMapping<Client, ImportClient> = {
  stream: 'clients',
  mappingVersion: CLIENT_MAPPING_VERSION,
  toPayload: clientToImportClient,
  check: (client) => checkImportClient(client),
};

/** Client → clients/import item: several phones or emails are joined by ','. */
export function clientToImportClient(client: Client): ImportClient {
  const out: ImportClient = {
    id: client.id,
    name: client.name,
    phone: joined(client.phones),
    email: joined(client.emails),
  };
  if (client.company != null) out.company = client.company;
  if (client.birth_date != null) out.birth_date = client.birth_date;
  if (client.custom_fields && Object.keys(client.custom_fields).length) out.fields = { ...client.custom_fields };
  return out;
}

function joined(values: string[] | undefined): string | null {
  const kept = (values ?? []).map((v) => v.trim()).filter((v) => v !== '');
  return kept.length ? kept.join(',') : null;
}
