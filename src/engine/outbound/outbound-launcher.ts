import { Injectable } from '@nestjs/common';
import { ConnectionConfig } from '../../config/config.schema';
import type { OutboundFlowName } from '../../runs/outbound-flows';
import { OutboundStore } from '../../store/repositories/outbound.store';
import { ConnectionLookup } from '../connection/connection-lookup';
import { withConnectorSession } from '../connection/connector-session';
import { errorText } from '../engine-errors';
import type { EngineLogger } from '../engine-logger';
import { lastingFailure, RunOutcome } from '../run/run-executor';
import { RunProgress } from '../run/run-progress';
import type { FlowEstimate, FlowPass, FlowPlan, OutboundFlow } from './outbound-flow';
import { outboundProgress } from './outbound-progress';
import { OutboundRunner } from './outbound-runner';
import { OUTBOUND_FLOW_IMPLEMENTATIONS, zeroFlowCounters } from './flows/registry';

/** Outbound runs and dry runs of a connection, put together from the flow, its connector, its project's tracker client and the store. */
@Injectable()
export class OutboundLauncher {
  constructor(
    private readonly lookup: ConnectionLookup,
    private readonly store: OutboundStore,
    private readonly progress: RunProgress,
  ) {}

  flow(name: OutboundFlowName): OutboundFlow {
    return OUTBOUND_FLOW_IMPLEMENTATIONS[name];
  }

  /** The connection's plan of the flow, or null when it has none (then the flow never runs for it). */
  planOf(connection: ConnectionConfig, name: OutboundFlowName): FlowPlan | null {
    try {
      const { definition, settings } = this.lookup.connector(connection);
      return this.flow(name).planOf(definition, settings);
    } catch {
      return null;
    }
  }

  async execute(connection: ConnectionConfig, name: OutboundFlowName, runId: number, signal: AbortSignal, logger: EngineLogger): Promise<RunOutcome> {
    let runner: OutboundRunner<FlowPlan, unknown, unknown, unknown> | undefined;
    try {
      const made = this.runner(connection, name, logger, signal, runId);
      runner = made.runner;
      const pass = runner;
      const status = await withConnectorSession({ ...runner.pass, logger, signal }, (session) => {
        pass.pass.session = session;
        return pass.run(runId);
      });
      made.flushProgress();
      logger.log(`${name.replace('_', '-')}: ${Object.entries(runner.counters).map(([k, v]) => `${k} ${v}`).join(' · ')}`);
      return { status, error: null };
    } catch (error) {
      if (runner) await this.store.recordCounters(runId, runner.counters).catch(() => undefined);
      return { status: 'failed', error: errorText(error), ...lastingFailure(error) };
    }
  }

  /** A dry run, in a connector session of its own (a lead's contact is looked up in the CRM); its progress goes out as events of run 0. */
  async preview(connection: ConnectionConfig, name: OutboundFlowName, logger: EngineLogger): Promise<unknown> {
    const { runner, flushProgress } = this.runner(connection, name, logger, undefined, 0);
    const preview = await withConnectorSession({ ...runner.pass, logger }, (session) => {
      runner.pass.session = session;
      return runner.preview();
    });
    flushProgress();
    return preview;
  }

  /** What a pass of the flow would cost the service, before it is spent; null when the flow does not say. */
  async estimate(connection: ConnectionConfig, name: OutboundFlowName, logger: EngineLogger): Promise<FlowEstimate | null> {
    const flow = this.flow(name);
    return flow.estimate ? flow.estimate(this.pass(connection, name, logger)) : null;
  }

  private runner(connection: ConnectionConfig, name: OutboundFlowName, logger: EngineLogger, signal: AbortSignal | undefined, runId: number):
  { runner: OutboundRunner<FlowPlan, unknown, unknown, unknown>; flushProgress: () => void } {
    const pass = this.pass(connection, name, logger, signal);
    const progress = outboundProgress(this.progress, this.flow(name), pass, runId);
    pass.progress = progress.report;
    return { runner: new OutboundRunner(this.flow(name), pass, this.store), flushProgress: progress.flush };
  }

  private pass(connection: ConnectionConfig, name: OutboundFlowName, logger: EngineLogger, signal?: AbortSignal): FlowPass {
    const flow = this.flow(name);
    const { definition, settings } = this.lookup.connector(connection);
    const plan = flow.planOf(definition, settings);
    if (!plan) throw new Error(flow.noPlan(connection.id, definition));
    return {
      connectionId: connection.id, definition, settings, plan, tracker: this.lookup.tracker(connection), store: this.store, logger, signal,
      repositories: flow.repository ? { [flow.repository]: this.store[flow.repository] } : {},
      now: new Date(), counters: zeroFlowCounters(name) as Record<string, number>,
      workDir: this.lookup.workDir(connection.id),
      secrets: this.lookup.secrets(connection.id),
    };
  }
}
