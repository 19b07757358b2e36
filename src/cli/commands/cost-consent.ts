import { createInterface } from 'node:readline/promises';
import { costText } from '../../application';
import type { FlowEstimate } from '../../engine';
import type { CliOutput } from '../output/cli-output';

/**
 * A pass whose plan takes more than this at the service's limits is not started from the CLI without a yes:
 * asked on a terminal, `--yes` otherwise. Below it, a pass costs about what a sync does and just goes.
 */
export const CONFIRM_ABOVE_MINUTES = 5;

/** Where a question is asked: a terminal's stdin and stderr (stdout stays the command's answer). */
export interface Asker {
  /** both ends are a terminal: someone is there to answer */
  interactive: boolean;
  ask(question: string): Promise<string>;
}

export function terminalAsker(): Asker {
  return {
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    async ask(question) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}

export function needsConsent(estimate: FlowEstimate | null): boolean {
  return !!estimate && estimate.chosen.seconds > CONFIRM_ABOVE_MINUTES * 60;
}

/**
 * Whether the pass may spend what its plan says: yes below the threshold or with `--yes`; on a terminal the
 * user is asked; otherwise the command explains and refuses (exit 1), having sent only the plan's request.
 */
export async function costConsented(
  out: CliOutput, connectionId: string, what: string, estimate: FlowEstimate | null, yes: boolean, asker: Asker,
): Promise<boolean> {
  if (!needsConsent(estimate) || yes) return true;
  const cost = `connection ${connectionId}: this ${what} reads ${estimate!.chosen.text}: ${costText(estimate!.chosen)} (more than ${CONFIRM_ABOVE_MINUTES} min)`;
  if (asker.interactive) {
    const answer = await asker.ask(`${cost}. Go on? [y/N] `);
    if (/^\s*y(es)?\s*$/i.test(answer)) return true;
    out.error(`connection ${connectionId}: ${what} not started`);
    return false;
  }
  out.error(`${cost}: not started without a yes; run it again with --yes to spend that (or from a terminal, to be asked)`);
  return false;
}
