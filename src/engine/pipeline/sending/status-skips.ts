import type { AddOrder, OrderStatusDefinition } from '../../../tracker/types/orders.types';
import { errorText } from '../../engine-errors';
import type { BatchAnswer, HandlerContext } from './stream-handler';

/** What one stream's run knows of the project's statuses, and the skips it could not name (for its notice). */
interface RunStatuses {
  /** listed once per run, at the first skip: after `statuses: register` has defined the CRM's stages */
  dictionary: Promise<OrderStatusDefinition[]>;
  unnamed: number;
  /** why they could not be named, each once */
  why: Set<string>;
  /** statuses of the batches' orders the project lacks, where the dictionary was listed */
  lacking: Set<string>;
}

/** Per stream run (its HandlerContext): gone with the run. */
const runs = new WeakMap<HandlerContext, RunStatuses>();

const REASON_MAX = 500;

/**
 * The orders of a batch the service counted `skipped_by_status` without naming them: those whose `status` is not an
 * id of the project's dictionary (listed once per run). They are refused, not acknowledged, so the deal is sent again
 * once it changes or its run is retried, instead of being stored as delivered. When the dictionary cannot be listed,
 * or the orders it points at are not as many as the service counted (an order sent without a status keeps the one the
 * service holds; the dictionary changed meanwhile), none can be named: the batch is acknowledged as before, and the
 * run warns, naming the count and the statuses, so the skip is not silent.
 */
export async function statusRefusals(ctx: HandlerContext, orders: AddOrder[], skipped: number): Promise<BatchAnswer['refused']> {
  const run = runOf(ctx);
  let dictionary: OrderStatusDefinition[];
  try {
    dictionary = await run.dictionary;
  } catch (e) {
    // the run is being stopped (a shutdown closes the client): the batch stays unacknowledged and is sent again
    if (ctx.signal?.aborted) throw e;
    const why = `the project's statuses could not be listed (${errorText(e)})`;
    return unnamed(ctx, run, skipped, why, why, []);
  }
  const known = new Set(dictionary.map((status) => status.id));
  const lacking = orders.filter((order) => order.status !== undefined && order.status !== null && order.status !== '' && !known.has(String(order.status)));
  const statuses = [...new Set(lacking.map((order) => String(order.status)))];
  if (lacking.length !== skipped) {
    const what = lacking.length ? `${lacking.length} of its orders have a status the project lacks` : 'every order of it has a status the project has';
    const why = 'the orders whose status the project lacks were not as many as the service counted';
    return unnamed(ctx, run, skipped, `the service counted ${skipped}, and ${what}`, why, statuses);
  }
  const project = ctx.tracker.project ? `project ${ctx.tracker.project}` : 'the project';
  const retry = ctx.runId ? ` (cli retry ${ctx.runId})` : '';
  return lacking.map((order) => {
    const reason = (list: string) => `the service skipped it (skipped_by_status): status ${JSON.stringify(String(order.status))} is not a status of `
      + `${project} (its statuses: ${list}); add it to the project or map it with status_map, then retry the run${retry}`;
    return { externalId: String(order.id), field: 'status', reason: reason(listed(dictionary, REASON_MAX - reason('').length)) };
  });
}

/** The stream's notice of the skips no order could be named for (none: nothing to say). */
export function statusSkipNotices(ctx: HandlerContext): string[] {
  const run = runs.get(ctx);
  if (!run?.unnamed) return [];
  const statuses = run.lacking.size ? `; statuses sent that the project lacks: ${[...run.lacking].slice(0, 10).map((s) => JSON.stringify(s)).join(', ')}` : '';
  return [`deals: ${run.unnamed} ${run.unnamed === 1 ? 'order' : 'orders'} the service skipped for their status (skipped_by_status) could not be named, `
    + `so they count as delivered and are not sent again on their own: ${[...run.why].join('; ')}${statuses}. `
    + `Check status_map against the project's statuses (cli check ${ctx.connectionId}), then resync the deals (cli sync ${ctx.connectionId} --full)`];
}

function runOf(ctx: HandlerContext): RunStatuses {
  let run = runs.get(ctx);
  if (!run) {
    run = { dictionary: ctx.tracker.orders.listStatuses(), unnamed: 0, why: new Set(), lacking: new Set() };
    run.dictionary.catch(() => undefined); // a failed listing is answered at each skip, never unhandled
    runs.set(ctx, run);
  }
  return run;
}

/** `detail`: this batch's, for the log; `why`: the run's notice's, the same for every batch of one cause. */
function unnamed(ctx: HandlerContext, run: RunStatuses, skipped: number, detail: string, why: string, statuses: string[]): [] {
  run.unnamed += skipped;
  run.why.add(why);
  for (const status of statuses) run.lacking.add(status);
  const named = statuses.length ? `; statuses the project lacks: ${statuses.slice(0, 10).map((s) => JSON.stringify(s)).join(', ')}` : '';
  ctx.log(`deals: the service skipped ${skipped} ${skipped === 1 ? 'order' : 'orders'} of a batch for their status (skipped_by_status), `
    + `and which cannot be told: ${detail}${named}; they count as delivered`);
  return [];
}

/** `0 (In work), 1 (Paid), …`: as many of the statuses as fit in `room` characters. */
function listed(dictionary: OrderStatusDefinition[], room: number): string {
  if (!dictionary.length) return 'none';
  let text = '';
  for (const [i, status] of dictionary.entries()) {
    const item = `${i ? ', ' : ''}${status.id} (${status.name})`;
    if (text.length + item.length > room - 3) return text ? `${text}, …` : '…';
    text += item;
  }
  return text;
}
