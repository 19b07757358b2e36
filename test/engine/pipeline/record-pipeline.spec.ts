import type { Deal } from '../../../src/connectors/canonical';
import { fingerprinter } from '../../../src/engine/pipeline/fingerprint';
import { Candidate, lastVersions, Problem, RecordPipeline, RecordVerdicts } from '../../../src/engine/pipeline/record-pipeline';
import { DEAL_MAPPING_VERSION, dealsMapping } from '../../../src/engine/mappings/deals';

/** The verdicts as a list, in the order they were given. */
class Verdicts implements RecordVerdicts<unknown> {
  readonly said: (string | [string, string, ...unknown[]])[] = [];
  accept(c: Candidate, payload: unknown, fingerprint: string, stored: string | undefined) {
    this.said.push(['accept', c.externalId, fingerprint, stored === undefined ? 'new' : 'known', payload]);
  }
  unchanged(c: Candidate) {
    this.said.push(['unchanged', c.externalId]);
  }
  reject(c: Candidate, problems: Problem[], fingerprint: string | null, payload: unknown) {
    this.said.push(['reject', c.externalId, problems.map((p) => `${p.field}: ${p.reason}`).join('; '), fingerprint, payload === undefined ? 'no payload' : 'payload']);
  }
}

const deal = (id: string, extra: Partial<Deal> = {}): Deal => ({ id, title: `Deal ${id}`, created_at: new Date('2025-03-10T09:00:00Z'), ...extra });
const fp = fingerprinter(DEAL_MAPPING_VERSION);
const payloadFp = (d: Deal) => fp.payload(dealsMapping.toPayload(d));

describe('record pipeline: one order for every connector', () => {
  const pipeline = new RecordPipeline(dealsMapping, DEAL_MAPPING_VERSION);

  it('takes a record without id in as a rejection, and fingerprints a row hash at intake (fingerprint-if-cheap)', () => {
    const out = new Verdicts();
    expect(pipeline.intake(deal(''), '', 'deals.csv row 3', undefined, out)).toBeNull();
    expect(out.said).toEqual([['reject', '', 'id: is empty', null, 'no payload']]);
    expect(pipeline.intake(deal('d1'), 'd1', undefined, 'rowhash', out)).toMatchObject({ externalId: 'd1', fingerprint: fp.source('rowhash') });
    expect(pipeline.intake(deal('d2'), 'd2', undefined, undefined, out)).toMatchObject({ externalId: 'd2', fingerprint: null });
  });

  it('drops a hashed record the store holds before mapping it: a record the mapping would refuse is unchanged, not rejected', () => {
    const out = new Verdicts();
    const broken = deal('d1', { price: Number.NaN });
    const candidate = pipeline.candidate(broken, 'd1', undefined, 'h1');
    pipeline.settle([candidate], new Map([['d1', fp.source('h1')]]), true, out);
    expect(out.said).toEqual([['unchanged', 'd1']]);
    // the same record with another row hash goes on to the mapping, which names the field
    pipeline.settle([pipeline.candidate(broken, 'd1', 'row 2', 'h2')], new Map([['d1', fp.source('h1')]]), true, out);
    expect(out.said[1]).toEqual(['reject', 'd1', 'price: NaN is not a finite number', fp.source('h2'), 'no payload']);
  });

  it('without a row hash maps and checks first, then compares the payload fingerprint', () => {
    const out = new Verdicts();
    const same = deal('d1');
    const changed = deal('d2');
    const stored = new Map([
      ['d1', payloadFp(same)],
      ['d2', payloadFp(deal('d2', { title: 'before' }))],
    ]);
    pipeline.settle([pipeline.candidate(same, 'd1', undefined, undefined), pipeline.candidate(changed, 'd2', undefined, undefined)], stored, true, out);
    expect(out.said).toEqual([
      ['unchanged', 'd1'],
      ['accept', 'd2', payloadFp(changed), 'known', dealsMapping.toPayload(changed)],
    ]);
  });

  it("rejects what fails the checks with the payload's fingerprint (or the row's), keeping the payload", () => {
    const out = new Verdicts();
    const bad = deal('d1', { products: [{ id: 'p1', name: '', quantity: 1 }] });
    pipeline.settle([pipeline.candidate(bad, 'd1', undefined, undefined), pipeline.candidate(bad, 'd1', undefined, 'h9')], new Map(), true, out);
    expect(out.said).toEqual([
      ['reject', 'd1', 'products[0].name: is required', payloadFp(bad), 'payload'],
      ['reject', 'd1', 'products[0].name: is required', fp.source('h9'), 'payload'],
    ]);
  });

  it('drops nothing when told not to (full runs, retries, preview), yet tells a known id', () => {
    const out = new Verdicts();
    const d = deal('d1');
    pipeline.settle([pipeline.candidate(d, 'd1', undefined, 'h1'), pipeline.candidate(deal('d2'), 'd2', undefined, undefined)], new Map([['d1', fp.source('h1')]]), false, out);
    expect(out.said.map((s) => s.slice(0, 4))).toEqual([
      ['accept', 'd1', fp.source('h1'), 'known'],
      ['accept', 'd2', payloadFp(deal('d2')), 'new'],
    ]);
  });

  it('gives exactly one verdict per candidate, in order', () => {
    const out = new Verdicts();
    const candidates = [deal('a'), deal('b', { price: Infinity }), deal('c'), deal('d', { products: [{ id: '', name: 'x', quantity: 1 }] })].map((d, i) =>
      pipeline.candidate(d, d.id, undefined, i % 2 ? undefined : `h${i}`),
    );
    pipeline.settle(candidates, new Map([['c', fp.source('h2')]]), true, out);
    expect(out.said.map((s) => `${s[0]} ${s[1]}`)).toEqual(['accept a', 'reject b', 'unchanged c', 'reject d']);
  });

  it('keeps the last version of an id read twice in a chunk, in its read position', () => {
    const c = (id: string, hash: string) => pipeline.candidate(deal(id), id, undefined, hash);
    const unique = [c('a', '1'), c('b', '2')];
    expect(lastVersions(unique)).toBe(unique);
    expect(lastVersions([c('a', '1'), c('b', '2'), c('a', '3')]).map((x) => [x.externalId, x.fingerprint])).toEqual([
      ['b', fp.source('2')],
      ['a', fp.source('3')],
    ]);
  });
});
