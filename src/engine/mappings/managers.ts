import type { Manager } from '../../connectors/canonical';
import { checkManager } from '../../tracker/payload-checks';
import type { ManagerInput } from '../../tracker/types/managers.types';
import type { StreamMapping } from './stream-mapping';

/** Bump when a change of the mapping or checks changes what is sent: every manager is sent again once. */
export const MANAGER_MAPPING_VERSION = 1;

export const managersMapping: StreamMapping<Manager, ManagerInput> = {
  stream: 'managers',
  mappingVersion: MANAGER_MAPPING_VERSION,
  toPayload: managerToInput,
  check: (m) => checkManager(m),
};

/** Manager → manager/add (and update) body. */
export function managerToInput(manager: Manager): ManagerInput {
  return { id: manager.id, name: manager.name, phone: manager.phone ?? null, email: manager.email ?? null };
}
