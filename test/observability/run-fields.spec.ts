/** The fields JSON logs lift from a run line's prefix: connection, run, and the project where the config names projects. */
import { runScopedLogger } from '../../src/engine/engine-logger';
import { createLogger } from '../../src/observability/logger';
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

  it('gives JSON lines of a connection its project, the scheduler\'s too (their text does not name it)', () => {
    const written: string[] = [];
    const logger = createLogger({ format: 'json' }, { write: (line) => written.push(line) }, (id) => (id === 'acme-amo' ? 'acme' : undefined));
    logger.info('connection acme-amo: run 5 started (schedule)');
    logger.info('[acme-amo run 5 project=acme] run started: mode incremental');
    logger.info('connection other: run 6 started (schedule)');
    const parsed = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map(({ connection, run, project }) => ({ connection, run, project }))).toEqual([
      { connection: 'acme-amo', run: 5, project: 'acme' },
      { connection: 'acme-amo', run: 5, project: 'acme' },
      { connection: 'other', run: 6, project: undefined },
    ]);
  });
});
