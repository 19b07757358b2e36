/**
 * The words every outbound flow (it reads the service and writes into the CRM) is described in. Each flow
 * describes itself in its own folder (`src/engine/outbound/flows/<flow>/<flow>.description.ts`): its name (the
 * run's `flow`, and its `mode`, as write-back runs always read), words for people, its counters with what each
 * means, and its /metrics series. The flow registry (src/engine/outbound/flows/registry.ts) lists them, and fills
 * in `RegisteredOutboundFlows` below, so that the store and the run rows know each flow's name and counters as
 * types without importing the engine (which imports them: no folder cycle). The faces read the descriptions
 * through src/application.
 */
export interface OutboundFlowDescription {
  /** the run's `flow` (and `mode`): `write_back` */
  name: string;
  /** words for people: "write-back" */
  title: string;
  /** what the flow does, in a sentence or two for people (plain text; `backticks` mark a settings key) */
  about?: string;
  /** counter name → what it counts; the order is the order they are shown in */
  counters: Readonly<Record<string, string>>;
  /** the /metrics counter of the flow's items, by connection and outcome (one outcome per counter) */
  metric: { name: string; help: string };
}

/**
 * Each registered flow's description, by name: empty here, filled in by the flow registry through declaration
 * merging (`declare module` in src/engine/outbound/flows/registry.ts), so it always lists the registered flows.
 */
export interface RegisteredOutboundFlows {}

export type OutboundFlowName = keyof RegisteredOutboundFlows & string;

/** A flow's counters: one number per counter its description names. */
export type FlowCounters<F extends OutboundFlowName = OutboundFlowName> = Record<keyof RegisteredOutboundFlows[F]['counters'], number>;

/** The counters of a write-back run: the run answers' `write_back` key (what write-back runs always showed). */
export type WriteBackCounters = FlowCounters<'write_back'>;

/** Every counter of the description at 0. */
export function zeroCounters(description: OutboundFlowDescription): Record<string, number> {
  return Object.fromEntries(Object.keys(description.counters).map((name) => [name, 0]));
}

/** `write-back: attributed 4 · written 1 · unchanged 3 · rejected 0`: the counters in the description's order. */
export function countersLine(description: OutboundFlowDescription, counters: Partial<Record<string, number>>): string {
  return `${description.title}: ${Object.keys(description.counters).map((name) => `${name} ${counters[name] ?? 0}`).join(' · ')}`;
}
