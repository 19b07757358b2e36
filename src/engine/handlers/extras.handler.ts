import type { CustomEvent, Expense, Lead, MediaPlanTarget } from '../../connectors/canonical';
import { checkExpense, checkLead, checkMediaPlan } from '../../tracker/payload-checks';
import type { ExpenseAddRequest } from '../../tracker/types/channels.types';
import type { EventBulkSendItem } from '../../tracker/types/events.types';
import type { LeadCreateRequest } from '../../tracker/types/leads.types';
import type { MediaPlanCreateRequest } from '../../tracker/types/mediaplans.types';
import {
  EVENT_MAPPING_VERSION,
  eventToBulkItem,
  EXPENSE_MAPPING_VERSION,
  expenseToRequest,
  LEAD_MAPPING_VERSION,
  leadToCreateRequest,
  MEDIAPLAN_MAPPING_VERSION,
  mediaPlanToRequest,
} from '../mapping/extra.mapping';
import { isOutcomeUnknown } from '../../tracker/tracker-error';
import type { StreamHandler } from '../stream-handlers';
import { expenseLanded, leadLanded, mediaPlanLanded } from './landed-checks';
import { sendEach, uncertainReason } from './per-record';

/**
 * The extra streams. The service identifies expenses, media plans and leads by its own ids, which
 * the store does not keep yet: a new record is created; a changed one is created again only where
 * that is idempotent on the service side (expenses: same channel and period are looked up first).
 * Their create calls are not repeated by the client after a timeout: a lead, a media plan or an expense
 * is looked up first (landed-checks.ts) and sent again only when absent; events cannot be told apart
 * in the service's log, so a batch whose bulk send timed out is reported uncertain, never sent twice.
 */
export const expensesHandler: StreamHandler<Expense, ExpenseAddRequest> = {
  stream: 'expenses',
  mappingVersion: EXPENSE_MAPPING_VERSION,
  toPayload: expenseToRequest,
  check: (e) => checkExpense(e),
  concurrent: false,
  async send(ctx, items) {
    const existing = await ctx.tracker.channels.listExpenses();
    const key = (source: unknown, from: unknown, to: unknown) => `${String(source)}|${String(from)}|${String(to)}`;
    const ids = new Map<string, number>();
    for (const e of existing as unknown as Record<string, unknown>[]) ids.set(key(e.source ?? e.source_name, e.from_date, e.to_date), Number(e.id));
    return sendEach(
      items,
      async ({ payload }) => {
        const id = ids.get(key(payload.source, payload.from_date, payload.to_date));
        if (id !== undefined && Number.isFinite(id)) await ctx.tracker.channels.updateExpense({ id, marketing_cost: payload.marketing_cost });
        else await ctx.tracker.channels.addExpense(payload);
      },
      { landed: ({ payload }) => expenseLanded(ctx.tracker, payload) },
    );
  },
};

export const mediaplansHandler: StreamHandler<MediaPlanTarget, MediaPlanCreateRequest> = {
  stream: 'mediaplans',
  mappingVersion: MEDIAPLAN_MAPPING_VERSION,
  toPayload: mediaPlanToRequest,
  check: (p) => checkMediaPlan(p),
  concurrent: false,
  send: (ctx, items) =>
    sendEach(items, ({ payload }) => ctx.tracker.mediaplans.create(payload), { landed: ({ payload }) => mediaPlanLanded(ctx.tracker, payload) }),
};

export const leadsHandler: StreamHandler<Lead, LeadCreateRequest> = {
  stream: 'leads',
  mappingVersion: LEAD_MAPPING_VERSION,
  toPayload: leadToCreateRequest,
  check: (l) => checkLead(l),
  concurrent: false,
  send: (ctx, items) =>
    sendEach(
      items,
      async (item) => {
        if (item.known && !ctx.retry) {
          ctx.log(`leads: ${item.externalId} changed, but updating a lead needs the service's lead id (not kept yet); skipped`);
          return;
        }
        await ctx.tracker.leads.create(item.payload);
      },
      { landed: ({ payload }) => leadLanded(ctx.tracker, payload) },
    ),
};

export const eventsHandler: StreamHandler<CustomEvent, EventBulkSendItem> = {
  stream: 'events',
  mappingVersion: EVENT_MAPPING_VERSION,
  toPayload: eventToBulkItem,
  check: (e) => (e.name ? [] : [{ id: '', field: 'name', reason: 'is required' }]),
  concurrent: true,
  async send(ctx, items) {
    try {
      await ctx.tracker.events.bulkSend(items.map((i) => i.payload));
    } catch (e) {
      if (!isOutcomeUnknown(e)) throw e;
      const reason = uncertainReason(e.message, "the service's event log cannot tell these triggers from repeated ones");
      return { refused: [], uncertain: items.map((i) => ({ externalId: i.externalId, reason })) };
    }
    return { refused: [] };
  },
};
