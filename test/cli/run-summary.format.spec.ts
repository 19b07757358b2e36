import { rejectedLine, rejectedLines, streamSummaryLines } from '../../src/cli/output/run-summary.format';

describe('run summary lines', () => {
  const counters = {
    uploaded: 3, processed: 3, saved: 2, skipped_by_status: 1, skipped_by_waiting_visit_info: 0, skipped_by_internal_error: 0,
    skipped_because_not_changed: 0, skipped_by_invalid_format: 0, skipped_fields_by_invalid_format: 0,
  };

  it('prints one line per stream in dependency order, the service counters on the deals line', () => {
    const lines = streamSummaryLines(
      {
        deals: { read: 20000, sent: 120, unchanged: 19880, rejected: 2, sent_without_visit: 7 },
        clients: { read: 5, sent: 5, unchanged: 0, rejected: 0, sent_without_visit: 0 },
      },
      counters,
    );
    expect(lines[0]).toBe('clients: read 5 · sent 5 · unchanged 0 · rejected 0');
    expect(lines[1]).toMatch(
      /^deals: read 20000 · sent 120 · unchanged 19880 · rejected 2 · skipped_by_status 1 · skipped_by_waiting_visit_info 0 · skipped_by_internal_error 0 · /,
    );
    expect(lines[1]).toContain('saved 2');
    expect(lines[1]).toMatch(/sent_without_visit 7$/);
  });

  it('shows uncertain records (a create call that timed out, not sent again) only when there are some', () => {
    const lines = streamSummaryLines(
      {
        leads: { read: 3, sent: 2, unchanged: 0, rejected: 0, sent_without_visit: 0, uncertain: 1 },
        events: { read: 4, sent: 4, unchanged: 0, rejected: 0, sent_without_visit: 0 },
      },
      counters,
    );
    expect(lines[0]).toBe('leads: read 3 · sent 2 · unchanged 0 · rejected 0 · uncertain 1');
    expect(lines[1]).not.toContain('uncertain');
  });

  it("shows a stream's fields left out (skipped_fields_by_invalid_format) only when there are some", () => {
    const lines = streamSummaryLines(
      {
        clients: { read: 4, sent: 4, unchanged: 0, rejected: 0, sent_without_visit: 0, skipped_fields_by_invalid_format: 2 },
        deals: { read: 2, sent: 2, unchanged: 0, rejected: 0, sent_without_visit: 0 },
      },
      counters,
    );
    expect(lines[0]).toBe('clients: read 4 · sent 4 · unchanged 0 · rejected 0 · skipped_fields_by_invalid_format 2');
    expect(lines[1]).toContain('skipped_fields_by_invalid_format 0'); // the service's own, on the deals line
  });

  it('a run without deals: each line carries its own counters, none of add-orders (its zeros read as skips of clients)', () => {
    const zeros = Object.fromEntries(Object.keys(counters).map((key) => [key, 0]));
    expect(streamSummaryLines({ clients: { read: 4, sent: 4, unchanged: 0, rejected: 0, skipped_fields_by_invalid_format: 2 } }, zeros))
      .toEqual(['clients: read 4 · sent 4 · unchanged 0 · rejected 0 · skipped_fields_by_invalid_format 2']);
    expect(streamSummaryLines({ managers: { read: 1, sent: 1, unchanged: 0, rejected: 0 }, clients: { read: 4, sent: 4, unchanged: 0, rejected: 0 } }, zeros))
      .toEqual(['managers: read 1 · sent 1 · unchanged 0 · rejected 0', 'clients: read 4 · sent 4 · unchanged 0 · rejected 0']);
  });

  it('names stream, id, origin, field and reason of a rejected record', () => {
    expect(rejectedLine({ stream: 'deals', external_id: 'r3', ref: 'deals.csv row 4', field: 'created_at', reason: '"31.02.2025" is not a valid date' })).toBe(
      'rejected deals r3 (deals.csv row 4) created_at: "31.02.2025" is not a valid date',
    );
    expect(rejectedLine({ stream: 'clients', external_id: '', ref: null, field: '', reason: 'no id' })).toBe('rejected clients (no id) no id');
  });

  it('lists the first 20 rejected records, then counts the rest', () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ stream: 'deals', external_id: `r${i}`, ref: null, field: 'price', reason: 'bad' }));
    const lines = rejectedLines(records, 23);
    expect(lines).toHaveLength(21);
    expect(lines[20]).toBe('… and 3 more');
    expect(rejectedLines(records.slice(0, 2), 2)).toHaveLength(2);
  });
});
