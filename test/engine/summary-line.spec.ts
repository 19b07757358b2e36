import type { RunSummary } from '../../src/engine/engine-types';
import { zeroServiceCounters } from '../../src/engine/pipeline/service-answer';
import { summaryLine } from '../../src/engine/summary-line';

const run = (changes: Partial<RunSummary>): RunSummary => ({
  runId: 7, connectionId: 'sheet', mode: 'incremental', trigger: 'cli', status: 'succeeded', startedAt: '', finishedAt: null,
  streams: {}, counters: zeroServiceCounters(), rejectedCount: 0, rejected: [], error: null, direction: 'sync', flow: null, ...changes,
});
const stream = (read: number, sent: number) => ({ read, sent, unchanged: 0, rejected: read - sent, sent_without_visit: 0 });

describe('the log line of a finished run', () => {
  it("puts add-orders' counters on the deals part alone, wherever deals stand", () => {
    const counters = { ...zeroServiceCounters(), skipped_by_status: 1 };
    expect(summaryLine(run({ streams: { clients: stream(3, 3), deals: stream(2, 1), expenses: stream(1, 1) }, counters }))).toBe(
      'run 7 sheet succeeded: clients read 3 · sent 3 · unchanged 0 · rejected 0 | deals read 2 · sent 1 · unchanged 0 · rejected 1 · '
        + 'skipped_by_status 1 · skipped_by_waiting_visit_info 0 · skipped_by_internal_error 0 · skipped_because_not_changed 0 · '
        + 'skipped_by_invalid_format 0 · skipped_fields_by_invalid_format 0 | expenses read 1 · sent 1 · unchanged 0 · rejected 0',
    );
  });

  it('a run without deals has no add-orders counters; one that read nothing prints no zeros after "nothing read"', () => {
    expect(summaryLine(run({ streams: { clients: { ...stream(3, 3), skipped_fields_by_invalid_format: 1 } } }))).toBe(
      'run 7 sheet succeeded: clients read 3 · sent 3 · unchanged 0 · rejected 0 · skipped_fields_by_invalid_format 1',
    );
    expect(summaryLine(run({ status: 'failed', streams: { deals: stream(0, 0) }, error: 'stream deals: file deals.csv does not exist' }))).toBe(
      'run 7 sheet failed: nothing read — stream deals: file deals.csv does not exist',
    );
  });
});
