/**
 * The outbound flows (they read the service and write into the CRM), each described once: its name (the run's
 * `flow`, and its `mode`, as write-back runs always read), words for people, its counters with what each means,
 * and its /metrics series. The engine counts them (src/engine/outbound/), the run rows store them
 * (`flow_counters`), and the admin API, the CLI, the status page and /metrics read names and meanings from here,
 * as they read the service's counters from ADD_ORDERS_COUNTER_MEANINGS.
 *
 * A new flow adds its entry here (and its implementation in src/engine/outbound/flows/).
 */
export interface OutboundFlowDescription {
  /** words for people: "write-back" */
  title: string;
  /** what the flow does, in a sentence or two for people (plain text; `backticks` mark a settings key) */
  about?: string;
  /** counter name → what it counts; the order is the order they are shown in */
  counters: Readonly<Record<string, string>>;
  /** the /metrics counter of the flow's items, by connection and outcome (one outcome per counter) */
  metric: { name: string; help: string };
}

/** A write-back run's counters, with what each means. */
export const WRITE_BACK_COUNTER_MEANINGS = {
  attributed: "the connection's deals in the window whose order has a visit",
  written: 'deals whose changed values the CRM took',
  unchanged: 'deals whose values were already written (nothing sent)',
  rejected: 'deals the CRM refused (each a rejected record with its reason)',
} as const;

/** A lead-delivery run's counters (flow leads), with what each means. */
export const LEADS_COUNTER_MEANINGS = {
  found: "the service's proxy leads of the window (the days not yet complete)",
  created: 'leads that became a new CRM deal (with the visit in visit_field and the lead id in lead_id_field)',
  attached: "leads that went as a note on their contact's open deal (duplicates: attach) instead of a new deal",
  already_delivered: 'leads that have their deal already (delivered earlier, or order_id set by the service): nothing sent',
  rejected: 'leads the CRM refused (each a rejected record with the CRM\'s reason, open until delivered)',
} as const;

/** A manager-task run's counters (flow manager_tasks), with what each means. */
export const MANAGER_TASKS_COUNTER_MEANINGS = {
  due: "the connection's deals the service has had for manager_tasks.days days or more without a visit",
  created: 'deals whose manager got a task in the CRM this run',
  already_created: 'deals whose task was made earlier (stored, or found in the CRM): nothing sent',
  rejected: 'deals whose task the CRM refused (each a rejected record with its reason)',
} as const;

export const OUTBOUND_FLOWS = {
  write_back: {
    title: 'write-back',
    about: "The deals' attribution (channel, UTM tags, city…) written back into the CRM (`settings.write_back`); its refusals are listed with each run's rejected records.",
    counters: WRITE_BACK_COUNTER_MEANINGS,
    metric: { name: 'tracker_sync_write_back_deals_total', help: 'Deals of write-back runs by connection and outcome (attributed, written, unchanged, rejected)' },
  },
  leads: {
    title: 'lead delivery',
    about: "The service's proxy leads delivered into the CRM as deals, or as notes on a contact's open deal (`settings.lead_delivery`); a lead the CRM refused stays among the open rejections until delivered.",
    counters: LEADS_COUNTER_MEANINGS,
    metric: { name: 'tracker_sync_leads_total', help: 'Proxy leads of lead-delivery runs by connection and outcome (found, created, attached, already_delivered, rejected)' },
  },
  manager_tasks: {
    title: 'manager tasks',
    about: "A CRM task for the responsible manager of each deal the service has had for `settings.manager_tasks.days` days without a visit (its ad source unknown), asking how the client found us; one task per deal ever, looked up in the CRM before it is made.",
    counters: MANAGER_TASKS_COUNTER_MEANINGS,
    metric: { name: 'tracker_sync_manager_tasks_total', help: 'Deals of manager-task runs by connection and outcome (due, created, already_created, rejected)' },
  },
} as const satisfies Record<string, OutboundFlowDescription>;

export type OutboundFlowName = keyof typeof OUTBOUND_FLOWS;
export const OUTBOUND_FLOW_NAMES = Object.keys(OUTBOUND_FLOWS) as OutboundFlowName[];

/** A flow's counters: one number per counter its description names. */
export type FlowCounters<F extends OutboundFlowName = OutboundFlowName> = Record<keyof (typeof OUTBOUND_FLOWS)[F]['counters'], number>;

export type WriteBackCounters = FlowCounters<'write_back'>;
export const WRITE_BACK_COUNTERS = Object.keys(WRITE_BACK_COUNTER_MEANINGS) as (keyof WriteBackCounters)[];

export function isOutboundFlow(name: string): name is OutboundFlowName {
  return Object.prototype.hasOwnProperty.call(OUTBOUND_FLOWS, name);
}

export function describeFlow(flow: OutboundFlowName): OutboundFlowDescription {
  return OUTBOUND_FLOWS[flow];
}

/** The flow's counter names, in the order of its description. */
export function counterNamesOf(flow: OutboundFlowName): string[] {
  return Object.keys(OUTBOUND_FLOWS[flow].counters);
}

/** Every counter of the flow at 0. */
export function zeroFlowCounters<F extends OutboundFlowName>(flow: F): FlowCounters<F> {
  return Object.fromEntries(counterNamesOf(flow).map((name) => [name, 0])) as FlowCounters<F>;
}

/** `write-back: attributed 4 · written 1 · unchanged 3 · rejected 0`: the counters in the description's order. */
export function flowCountersLine(flow: OutboundFlowName, counters: Partial<Record<string, number>>): string {
  return `${OUTBOUND_FLOWS[flow].title}: ${counterNamesOf(flow).map((name) => `${name} ${counters[name] ?? 0}`).join(' · ')}`;
}
