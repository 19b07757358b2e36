import { Asker, CONFIRM_ABOVE_MINUTES, costConsented } from '../../src/cli/commands/cost-consent';
import type { CliOutput } from '../../src/cli/output/cli-output';
import type { FlowEstimate } from '../../src/engine';

/** The CLI's yes before a costly write-back: below the threshold it goes; above, --yes, a terminal's answer, or exit 1. */
describe('cli: consent to what a pass will cost', () => {
  const estimate = (seconds: number): FlowEstimate => ({
    summary: '200,006 orders',
    chosen: { way: 'order_pages', text: "the window's order list with visits", requests: 21, seconds },
    others: [],
    worthShowing: true,
  });
  const run = async (seconds: number, yes: boolean, asker: Partial<Asker> & { answers?: string[] } = {}) => {
    const errors: string[] = [];
    const questions: string[] = [];
    const out: CliOutput = { line: () => undefined, error: (text) => errors.push(text), isTTY: false };
    const answers = [...(asker.answers ?? [])];
    const ok = await costConsented(out, 'shop', 'write-back', estimate(seconds), yes, {
      interactive: asker.interactive ?? false,
      ask: async (question) => {
        questions.push(question);
        return answers.shift() ?? '';
      },
    });
    return { ok, errors, questions };
  };

  it(`a pass of up to ${CONFIRM_ABOVE_MINUTES} min just goes`, async () => {
    expect(await run(CONFIRM_ABOVE_MINUTES * 60, false)).toEqual({ ok: true, errors: [], questions: [] });
  });

  it('above it, --yes goes without a question', async () => {
    expect(await run(1140, true, { interactive: true })).toEqual({ ok: true, errors: [], questions: [] });
  });

  it('on a terminal, the user is asked; only a yes goes', async () => {
    const yes = await run(1140, false, { interactive: true, answers: ['Y'] });
    expect(yes).toEqual({ ok: true, errors: [], questions: ["connection shop: this write-back reads the window's order list with visits: 21 requests, about 19 min at the service's limits (more than 5 min). Go on? [y/N] "] });
    for (const answer of ['', 'n', 'no', 'maybe']) {
      const no = await run(1140, false, { interactive: true, answers: [answer] });
      expect({ answer, ok: no.ok, errors: no.errors }).toEqual({ answer, ok: false, errors: ['connection shop: write-back not started'] });
    }
  });

  it('without a terminal and without --yes it explains and refuses', async () => {
    const refused = await run(1140, false);
    expect(refused.ok).toBe(false);
    expect(refused.questions).toEqual([]);
    expect(refused.errors).toEqual([
      "connection shop: this write-back reads the window's order list with visits: 21 requests, about 19 min at the service's limits (more than 5 min): not started without a yes; run it again with --yes to spend that (or from a terminal, to be asked)",
    ]);
  });
});
