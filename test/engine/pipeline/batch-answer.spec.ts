import type { Chunk } from '../../../src/engine/pipeline/coverage-tracker';
import { OutgoingRecord, settleAnswer } from '../../../src/engine/pipeline/batch-answer';
import { RejectionLog } from '../../../src/engine/pipeline/rejection-log';
import { zeroServiceCounters } from '../../../src/engine/pipeline/service-answer';
import { zeroStreamCounters } from '../../../src/engine/pipeline/run-scope';

describe("batch answer: what the service's answer makes of each record", () => {
  it('counts sent, refused and uncertain records, frees their chunk, and acknowledges the sent and the uncertain', () => {
    const chunk: Chunk = { maxAt: null, pending: 4, closed: true };
    const item = (id: string, withoutVisit = false): OutgoingRecord => ({ externalId: id, payload: { id }, fingerprint: `p1:${id}`, known: false, chunk, withoutVisit });
    const counters = zeroStreamCounters();
    const service = zeroServiceCounters();
    const rejections = new RejectionLog(7, 'c1', 'deals');
    const acknowledged = settleAnswer(
      [item('a'), item('b', true), item('c'), item('d')],
      {
        counters: { uploaded: 4, saved: 2, skipped_by_invalid_format: 1 },
        refused: [{ externalId: 'c', field: 'date_create', reason: 'skipped_by_invalid_format', payload: { id: 'c', sent: true } }],
        uncertain: [{ externalId: 'd', reason: 'uncertain: timed out' }],
      },
      counters,
      service,
      rejections,
    );
    expect(acknowledged).toEqual([
      { externalId: 'a', fingerprint: 'p1:a' },
      { externalId: 'b', fingerprint: 'p1:b' },
      { externalId: 'd', fingerprint: 'p1:d' },
    ]);
    expect(chunk.pending).toBe(0);
    expect(counters).toMatchObject({ sent: 2, sent_without_visit: 1, rejected: 1, uncertain: 1 });
    expect(service).toMatchObject({ uploaded: 4, saved: 2, skipped_by_invalid_format: 1 });
    expect(rejections.drain().map((r) => [r.external_id, r.field, r.reason, r.source, r.excerpt])).toEqual([
      ['c', 'date_create', 'skipped_by_invalid_format', 'service', '{"id":"c","sent":true}'],
      ['d', 'delivery', 'uncertain: timed out', 'service', '{"id":"d"}'],
    ]);
  });
});
