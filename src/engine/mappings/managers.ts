import type { Manager } from '../../connectors/canonical';
import { checkManager } from '../../tracker/payload-checks';
import type { ManagerInput } from '../../tracker/types/managers.types';
import { isRefusal, sendEach } from '../pipeline/sending/per-record';
import type { HandlerContext, OutgoingItem, StreamHandler } from '../pipeline/sending/stream-handler';

/** Bump when a change of the mapping or checks changes what is sent: every manager is sent again once. */
export const MANAGER_MAPPING_VERSION = 1;

/**
 * Managers are diffed against what the service acknowledged: new ones added, changed ones updated,
 * ones gone from the source deleted (when the connection allows it) after a complete read.
 */
export const managersHandler: StreamHandler<Manager, ManagerInput> = {
  stream: 'managers',
  mappingVersion: MANAGER_MAPPING_VERSION,
  toPayload: managerToInput,
  check: (m) => checkManager(m),
  concurrent: false,
  send: (ctx, items) => sendEach(items, (item) => upsertManager(ctx, item)),
  async onCompleteRead(ctx, missingIds) {
    const deleted: string[] = [];
    for (const id of missingIds) {
      try {
        await ctx.tracker.managers.delete(id);
      } catch (e) {
        if (!isRefusal(e)) throw e;
        ctx.log(`managers: delete of ${id} refused (${(e as Error).message}); forgetting it`);
      }
      deleted.push(id);
    }
    return deleted;
  },
};

/** Manager → manager/add (and update) body. */
export function managerToInput(manager: Manager): ManagerInput {
  return { id: manager.id, name: manager.name, phone: manager.phone ?? null, email: manager.email ?? null };
}

/** add or update as the record state says; when the service disagrees (state lost, deleted by hand) try the other. */
async function upsertManager(ctx: HandlerContext, item: OutgoingItem<ManagerInput>): Promise<void> {
  const [first, second] = item.known
    ? [() => ctx.tracker.managers.update(item.payload), () => ctx.tracker.managers.add(item.payload)]
    : [() => ctx.tracker.managers.add(item.payload), () => ctx.tracker.managers.update(item.payload)];
  try {
    await first();
  } catch (e) {
    if (!isRefusal(e)) throw e;
    await second();
  }
}
