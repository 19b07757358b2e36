import type { OutboundFlowName } from '../../../runs/outbound-flows';
import type { OutboundFlow } from '../outbound-flow';
import { writeBackFlow } from './write-back/write-back.flow';

/**
 * The outbound flows the engine runs, by name: a new flow registers here (its implementation in
 * `flows/<name>/`, its description with its counters in src/runs/outbound-flows.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each flow has its own plan, item and write types
export const OUTBOUND_FLOW_IMPLEMENTATIONS: { readonly [F in OutboundFlowName]: OutboundFlow<any, any, any, any> } = {
  write_back: writeBackFlow,
};
