import type { Manager } from '../../../connectors/canonical';
import type { ManagerInput } from '../../../tracker/types/managers.types';
import { managersMapping } from '../../mappings/managers';
import { isRefusal, sendEach } from './per-record';
import type { HandlerContext, OutgoingItem, StreamHandler } from './stream-handler';

/**
 * Managers are diffed against what the service acknowledged: new ones added, changed ones updated,
 * ones gone from the source deleted (when the connection allows it) after a complete read.
 */
export const managersHandler: StreamHandler<Manager, ManagerInput> = {
  ...managersMapping,
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
