import type { Client, Manager } from '../../connectors/canonical';
import type { ImportClient } from '../../tracker/types/clients.types';
import type { ManagerInput } from '../../tracker/types/managers.types';

/** Bump when a change of the mapping or checks of a stream changes what is sent: its records are sent again once. */
export const CLIENT_MAPPING_VERSION = 1;
export const MANAGER_MAPPING_VERSION = 1;

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

/** Manager → manager/add (and update) body. */
export function managerToInput(manager: Manager): ManagerInput {
  return { id: manager.id, name: manager.name, phone: manager.phone ?? null, email: manager.email ?? null };
}
