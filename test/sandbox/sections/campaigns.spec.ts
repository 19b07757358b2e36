import { SectionClient, expectBadRequest } from './section-client';

/** E-mail campaigns and their recipients over HTTP, against the demo seed. */
describe('sandbox sections: e-mail campaigns', () => {
  let sandbox: SectionClient;
  beforeAll(async () => { sandbox = await SectionClient.start(); });
  afterAll(() => sandbox.close());

  const campaigns = (body: unknown = {}) => sandbox.post('project/clients/campaign/list', body);
  const contacts = (body: unknown) => sandbox.post('project/clients/campaign/contact/list', body);

  it('lists the seeded campaigns with integer id, title, status_id and total', async () => {
    const answer = await campaigns();
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ status: 'success', total: answer.data.data.length });
    expect(answer.data.data.length).toBeGreaterThanOrEqual(3);
    for (const campaign of answer.data.data) {
      expect(campaign).toEqual({ id: expect.any(Number), title: expect.any(String), status_id: expect.any(String) });
      expect(Number.isInteger(campaign.id)).toBe(true);
    }
  });

  it('filters by status_id, id and title, and pages with limit/offset while total counts all', async () => {
    const all = (await campaigns()).data.data as { id: number; title: string; status_id: string }[];
    const sent = (await campaigns({ filters: [['status_id', '=', 'sent']] })).data;
    expect(sent.data.length).toBeGreaterThan(0);
    expect(sent.data.length).toBeLessThan(all.length);
    expect(sent.data.every((c: any) => c.status_id === 'sent')).toBe(true);
    const byId = (await campaigns({ filters: [['id', 'in', [String(all[1].id)]]] })).data.data;
    expect(byId).toEqual([all[1]]);
    const byTitle = (await campaigns({ filters: [['title', 'like', all[0].title.slice(0, 5)]] })).data.data;
    expect(byTitle.map((c: any) => c.id)).toContain(all[0].id);
    const page = (await campaigns({ limit: 1, offset: 1 })).data;
    expect(page).toMatchObject({ data: [all[1]], total: all.length });
  });

  it('rejects a filter on another field, the {and} shape and a bad limit, naming the field', async () => {
    expectBadRequest(await campaigns({ filters: [['subject', '=', 'x']] }), 'filters[0].field');
    expectBadRequest(await campaigns({ filters: { and: [['id', '=', '1']] } }), 'filters');
    expectBadRequest(await campaigns({ filters: [['id', 'between', '1']] }), 'filters[0].operator');
    expectBadRequest(await campaigns({ limit: 'ten' }), 'limit');
  });

  it('answers recipients with exactly the requested metrics, count and total_count', async () => {
    const [first] = (await campaigns({ filters: [['status_id', '=', 'sent']] })).data.data;
    const answer = await contacts({ metric_ids: ['sent', 'opened'], campaign_ids: [first.id] });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ status: 'success', count: answer.data.data.length, total_count: answer.data.data.length });
    expect(answer.data.data.length).toBeGreaterThan(0);
    for (const recipient of answer.data.data) {
      expect(recipient).toEqual({ contact: expect.stringContaining('@'), metrics: { sent: expect.any(Number), opened: expect.any(Number) } });
      expect(recipient.metrics.sent).toBeGreaterThanOrEqual(recipient.metrics.opened);
    }
  });

  it('sums a contact over several campaigns and pages with limit/offset', async () => {
    const ids = ((await campaigns()).data.data as { id: number }[]).map((c) => c.id);
    const one = async (id: number) => (await contacts({ metric_ids: ['sent'], campaign_ids: [id] })).data.data as any[];
    const [a, b] = [await one(ids[0]), await one(ids[1])];
    const shared = a.find((r) => b.some((s) => s.contact === r.contact));
    expect(shared).toBeDefined();
    const both = (await contacts({ metric_ids: ['sent'], campaign_ids: [ids[0], ids[1]] })).data;
    const expectedSent = shared.metrics.sent + b.find((s: any) => s.contact === shared.contact).metrics.sent;
    expect(both.data.find((r: any) => r.contact === shared.contact).metrics.sent).toBe(expectedSent);
    expect(new Set(both.data.map((r: any) => r.contact)).size).toBe(both.data.length);
    const page = (await contacts({ metric_ids: ['sent'], campaign_ids: [ids[0], ids[1]], limit: 2, offset: 1 })).data;
    expect(page).toMatchObject({ count: 2, total_count: both.total_count, data: both.data.slice(1, 3) });
  });

  it('selects nothing for a campaign id of no campaign', async () => {
    const answer = await contacts({ metric_ids: ['click'], campaign_ids: [987654] });
    expect(answer.data).toEqual({ data: [], count: 0, total_count: 0, status: 'success' });
  });

  it('rejects missing, empty or unknown metric_ids and bad campaign_ids, naming the field', async () => {
    expectBadRequest(await contacts({ campaign_ids: [1] }), 'metric_ids');
    expectBadRequest(await contacts({ metric_ids: [], campaign_ids: [1] }), 'metric_ids');
    expectBadRequest(await contacts({ metric_ids: ['sent', 'bounced'], campaign_ids: [1] }), 'metric_ids[1]');
    expectBadRequest(await contacts({ metric_ids: 'sent', campaign_ids: [1] }), 'metric_ids');
    expectBadRequest(await contacts({ metric_ids: ['sent'] }), 'campaign_ids');
    expectBadRequest(await contacts({ metric_ids: ['sent'], campaign_ids: ['1'] }), 'campaign_ids[0]');
  });
});
