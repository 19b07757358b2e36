import { countersLine, zeroCounters, type FlowCounters, type OutboundFlowDescription, type OutboundFlowName } from '../../../runs/outbound-flows';
import type { OutboundFlow } from '../outbound-flow';
import * as writeBack from './write-back';
import * as leads from './leads';
import * as managerTasks from './manager-tasks';

/**
 * The outbound flows the engine runs: one folder each under flows/, registered by one line here. A flow's folder
 * says everything particular to it (its description: name, counters and metric; its reads, its items, its settings
 * block and their schema, the CRM actions it asks for, its state) and its index.ts hands this list its
 * `description` and its `flow`. The store and the faces read the descriptions from here (the faces through
 * src/application), never a flow's code.
 */
const REGISTERED = [
  writeBack,
  leads,
  managerTasks,
] as const;

/** Each registered flow's description by name, as the run vocabulary's types know it (src/runs/outbound-flows.ts). */
type Registered = { [Entry in (typeof REGISTERED)[number] as Entry['description']['name']]: Entry['description'] };
declare module '../../../runs/outbound-flows' {
  interface RegisteredOutboundFlows extends Registered {}
}

export const OUTBOUND_FLOWS = Object.fromEntries(REGISTERED.map(({ description }) => [description.name, description])) as Readonly<Registered>;
export const OUTBOUND_FLOW_NAMES = REGISTERED.map(({ description }) => description.name) as OutboundFlowName[];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each flow has its own plan, item and write types
export const OUTBOUND_FLOW_IMPLEMENTATIONS = Object.fromEntries(REGISTERED.map(({ flow }) => [flow.name, flow])) as { readonly [F in OutboundFlowName]: OutboundFlow<any, any, any, any> };

const misnamed = REGISTERED.filter(({ description, flow }) => description.name !== flow.name);
if (misnamed.length) {
  throw new Error(`outbound flows: ${misnamed.map(({ description, flow }) => `the flow ${flow.name} is described as ${description.name}`).join('; ')}`);
}

export function isOutboundFlow(name: string): name is OutboundFlowName {
  return Object.prototype.hasOwnProperty.call(OUTBOUND_FLOWS, name);
}

export function describeFlow<F extends OutboundFlowName>(flow: F): OutboundFlowDescription & { name: F } {
  const description: OutboundFlowDescription = OUTBOUND_FLOWS[flow];
  return description as OutboundFlowDescription & { name: F };
}

/** The flow's counter names, in the order of its description. */
export function counterNamesOf(flow: OutboundFlowName): string[] {
  return Object.keys(OUTBOUND_FLOWS[flow].counters);
}

/** Every counter of the flow at 0. */
export function zeroFlowCounters<F extends OutboundFlowName>(flow: F): FlowCounters<F> {
  return zeroCounters(OUTBOUND_FLOWS[flow]) as FlowCounters<F>;
}

/** `write-back: attributed 4 · written 1 · unchanged 3 · rejected 0`: the counters in the description's order. */
export function flowCountersLine(flow: OutboundFlowName, counters: Partial<Record<string, number>>): string {
  return countersLine(OUTBOUND_FLOWS[flow], counters);
}
