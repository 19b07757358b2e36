import { Injectable } from '@nestjs/common';
import { FlowEstimate, InvalidRunOptionsError, RunSummary, RunTrigger, SyncService } from '../../engine';
import { describeFlow, isOutboundFlow, OUTBOUND_FLOW_NAMES, OutboundFlowDescription, OutboundFlowName } from '../flow-descriptions';
import { RunTriggerService } from '../runs/run-trigger.service';

/** One outbound flow as it describes itself (its folder's description, listed by the registry: src/engine/outbound/flows/). */
export interface FlowListing extends OutboundFlowDescription {
  name: OutboundFlowName;
}

/**
 * The outbound flows for the faces (admin API, CLI, status page): which flows there are, a flow's run started
 * through the one trigger path, its dry run and what a pass would cost. Every flow is served the same way;
 * write-back and lead delivery are two names among them.
 */
@Injectable()
export class FlowRunsService {
  constructor(private readonly sync: SyncService, private readonly triggers: RunTriggerService) {}

  /** The flows, in the registry's order. */
  list(): FlowListing[] {
    return OUTBOUND_FLOW_NAMES.map((name) => describeFlow(name));
  }

  /** The flow's name checked against the registry (InvalidRunOptionsError naming the flows otherwise). */
  flow(name: string): OutboundFlowName {
    if (isOutboundFlow(name)) return name;
    throw new InvalidRunOptionsError(`there is no outbound flow ${JSON.stringify(name)} (flows: ${OUTBOUND_FLOW_NAMES.join(', ')})`);
  }

  /** A run of the flow through RunTriggerService (a run going: RunInProgressError naming it). */
  start(connectionId: string, flow: string, trigger: RunTrigger): Promise<{ runId: number; done: Promise<RunSummary> }> {
    return this.triggers.start(connectionId, trigger, { kind: 'outbound', flow: this.flow(flow) });
  }

  /** The flow's dry run: what would be written where; nothing written or stored (its progress: run 0). */
  dryRun(connectionId: string, flow: string): Promise<unknown> {
    return this.sync.outboundPreview(connectionId, this.flow(flow));
  }

  /**
   * What a pass would cost the service before it is spent, or null: the flow weighs nothing, or the connection
   * has no settings of the flow (the dry run or the start then says so).
   */
  async estimate(connectionId: string, flow: string): Promise<FlowEstimate | null> {
    const name = this.flow(flow);
    if (!this.sync.outboundPlan(connectionId, name)) return null;
    return this.sync.outboundEstimate(connectionId, name);
  }
}
