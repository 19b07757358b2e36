import { OUTBOUND_FLOW_NAMES, OutboundFlowName } from '../../../runs/outbound-flows';
import type { OutboundFlow } from '../outbound-flow';
import { writeBackFlow } from './write-back/write-back.flow';
import { leadsFlow } from './leads/leads.flow';
import { managerTasksFlow } from './manager-tasks/manager-tasks.flow';

/**
 * The outbound flows the engine runs: one folder each under flows/, registered by one line here. A flow's folder
 * says everything particular to it (its reads, its items, its settings block and their schema, the CRM actions it
 * asks for, its state); its counters' words stay in src/runs/outbound-flows.ts, which the store and the faces read
 * without the engine (the import rules, docs/architecture.md).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each flow has its own plan, item and write types
const FLOWS: readonly OutboundFlow<any, any, any, any>[] = [
  writeBackFlow,
  leadsFlow,
  managerTasksFlow,
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each flow has its own plan, item and write types
export const OUTBOUND_FLOW_IMPLEMENTATIONS = Object.fromEntries(FLOWS.map((flow) => [flow.name, flow])) as { readonly [F in OutboundFlowName]: OutboundFlow<any, any, any, any> };

const undescribed = FLOWS.filter((flow) => !OUTBOUND_FLOW_NAMES.includes(flow.name)).map((flow) => flow.name);
const unregistered = OUTBOUND_FLOW_NAMES.filter((name) => !OUTBOUND_FLOW_IMPLEMENTATIONS[name]);
if (undescribed.length || unregistered.length) {
  throw new Error(`outbound flows: ${[...undescribed.map((n) => `${n} has no description in src/runs/outbound-flows.ts`), ...unregistered.map((n) => `${n} is described but registered in no flows/ line`)].join('; ')}`);
}
