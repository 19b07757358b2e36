/**
 * The outbound flows' descriptions (names, words, counters and their meanings, metrics), as the faces read them:
 * each flow describes itself in its folder, the engine's flow registry lists them (src/engine/outbound/flows/).
 */
export { OUTBOUND_FLOWS, OUTBOUND_FLOW_NAMES, describeFlow, isOutboundFlow, counterNamesOf, flowCountersLine } from '../engine';
export type { FlowCounters, OutboundFlowDescription, OutboundFlowName, WriteBackCounters } from '../runs/outbound-flows';
