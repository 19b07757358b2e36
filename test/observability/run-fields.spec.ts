/** The fields JSON logs lift from a run line's prefix: connection, run, and the project where the config names projects. */
import { runScopedLogger } from '../../src/engine/engine-logger';
import { runFieldsOf } from '../../src/observability/run-fields';

describe('run fields of a log line', () => {
  const lines: string[] = [];
  const root = { log: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };

  beforeEach(() => {
    lines.length = 0;
  });

  it('names the project of a run line, and keeps lines without one as they were', () => {
    runScopedLogger(root, 'acme-amo', 12, 'acme').log('run started');
    runScopedLogger(root, 'acme-amo', null, 'acme').warn('preview');
    runScopedLogger(root, 'demo-sheet', 3).log('run started');
    expect(lines).toEqual(['[acme-amo run 12 project=acme] run started', '[acme-amo project=acme] preview', '[demo-sheet run 3] run started']);
    expect(lines.map(runFieldsOf)).toEqual([
      { connection: 'acme-amo', run: 12, project: 'acme' },
      { connection: 'acme-amo', project: 'acme' },
      { connection: 'demo-sheet', run: 3 },
    ]);
    expect(runFieldsOf('connection demo-sheet: run 4 queued')).toEqual({ connection: 'demo-sheet', run: 4 });
  });
});
