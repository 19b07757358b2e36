import { FlowRunsService, planLines, RunActivityService, SecretScrubber } from '../../application';
import type { FlowEstimate, ProgressEvent } from '../../engine';
import { describeFlow, OutboundFlowName } from '../../application/flow-descriptions';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { flowPreviewLines } from '../output/flow-preview.format';
import { printJson } from '../output/json-output';
import { progressReporter } from '../output/progress-reporter';
import { Asker, costConsented, needsConsent, terminalAsker } from './cost-consent';
import { followRun } from './follow-run';

export interface FlowCommandOptions {
  dryRun?: boolean;
  /** spend what the plan says without asking */
  yes?: boolean;
}

/**
 * `flow <flow> <connection>`: a pass of any outbound flow in the foreground (an outbound run, then its counters),
 * or with `--dry-run` what it would write where: nothing written or stored. A flow that weighs its cost first
 * (write-back) shows its plan when the plan has something to weigh; a plan above CONFIRM_ABOVE_MINUTES needs a
 * yes. `write-back` and `deliver-leads` are this command for their flow.
 */
export async function flowCommand(
  ctx: CliContext, out: CliOutput, flowName: string, connectionId: string, options: FlowCommandOptions, asker: Asker = terminalAsker(),
): Promise<number> {
  const flows = ctx.app.get(FlowRunsService);
  const flow = flows.flow(flowName);
  const words = describeFlow(flow).title.replace(/ /g, '-'); // write-back, lead-delivery
  // a connection without the flow's settings gets its refusal from the dry run or the start below
  const estimate = await flows.estimate(connectionId, flow);
  if (estimate && !ctx.json && (estimate.worthShowing || needsConsent(estimate))) {
    for (const line of planLines(connectionId, estimate)) out.line(line);
  }
  if (!(await costConsented(out, connectionId, options.dryRun ? 'dry run' : words, estimate, options.yes === true, asker))) return 1;
  if (options.dryRun) return dryRun(ctx, out, flow, connectionId, estimate);
  return followRun(
    ctx,
    out,
    connectionId,
    () => flows.start(connectionId, flow, 'cli'),
    (runId) => `connection ${connectionId}: ${words} run ${runId} started`,
  );
}

/** The dry run, with its progress while it reads (when its plan has more than one request to weigh). */
async function dryRun(ctx: CliContext, out: CliOutput, flow: OutboundFlowName, connectionId: string, estimate: FlowEstimate | null): Promise<number> {
  const progress = progressReporter(out, { quiet: ctx.json || !estimate?.worthShowing });
  const stopListening = ctx.app.get(RunActivityService).onProgress((event: ProgressEvent) => {
    if (event.connectionId === connectionId && event.runId === 0) progress.update(event);
  });
  try {
    const preview = await ctx.app.get(FlowRunsService).dryRun(connectionId, flow);
    progress.stop();
    if (ctx.json) printJson(ctx, out, preview);
    else for (const line of flowPreviewLines(flow, ctx.app.get(SecretScrubber).scrub(preview))) out.line(line);
    return 0;
  } finally {
    progress.stop();
    stopListening();
  }
}
