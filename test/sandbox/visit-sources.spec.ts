import { demoVisits } from '../../src/sandbox/seed/demo-visits';
import { SandboxHarness } from './sandbox-harness';

/** The demo visits carry realistic attribution: channels with levels, UTM tags on paid ones, cities, landing pages. */
describe('sandbox demo visits: attribution', () => {
  const visits = demoVisits(new Date('2026-01-01T00:00:00Z'));

  it('spread over several channels with levels; paid ones tagged with UTM, the others not', () => {
    const channels = new Map(visits.map((v) => [v.source.display_name_by_level.join(' / '), v.source]));
    expect([...channels.keys()]).toEqual(expect.arrayContaining([
      'Реклама / Яндекс Директ / Поиск', 'Реклама / Яндекс Директ / РСЯ', 'Реклама / Google Ads / Поиск',
      'Органика / Google', 'Органика / Яндекс', 'Соцсети / VK / Таргет', 'Прямые заходы', 'E-mail / Рассылка',
    ]));
    for (const visit of visits) {
      const { source } = visit;
      if (source.utm_medium === 'cpc') {
        expect({ id: visit.id, campaign: source.utm_campaign, term: source.utm_term, content: source.utm_content }).toEqual({
          id: visit.id, campaign: expect.stringMatching(/^[a-z_]+$/), term: expect.any(String), content: expect.stringMatching(/^ad_\d+$/),
        });
        const tags = new URL(visit.landing_page).searchParams;
        expect([tags.get('utm_source'), tags.get('utm_campaign'), tags.get('utm_term')]).toEqual([source.utm_source, source.utm_campaign, source.utm_term]);
      }
      if (source.utm_source === null) expect([source.utm_campaign, source.utm_term, new URL(visit.landing_page).search]).toEqual([null, null, '']);
    }
    expect(visits.find((v) => v.source.system_name === 'direct')!.source.referrer).toBe('');
    expect(visits.find((v) => v.source.system_name === 'yandex_direct')!.source.referrer).toBe('https://yandex.ru/');
  });

  it('come from Russian cities (and Almaty), on the shop\'s landing pages', () => {
    const cities = new Set(visits.map((v) => v.geo.city));
    expect([...cities]).toEqual(expect.arrayContaining(['Москва', 'Санкт-Петербург', 'Екатеринбург', 'Казань', 'Алматы']));
    expect(new Set(visits.map((v) => new URL(v.landing_page).pathname)).size).toBeGreaterThan(3);
    expect(visits.every((v) => v.landing_page.startsWith('https://shop.example/'))).toBe(true);
  });

  it('are the same on every start (seeded by the visit number)', () => {
    const again = demoVisits(new Date('2026-01-01T00:00:00Z'));
    expect(again.map((v) => [v.source, v.geo, v.landing_page])).toEqual(visits.map((v) => [v.source, v.geo, v.landing_page]));
  });

  describe('over HTTP', () => {
    let sandbox: SandboxHarness;
    beforeAll(async () => { sandbox = await SandboxHarness.start(); });
    afterAll(() => sandbox.close());

    it('the order list with extend visit returns the order\'s visit with its source, geo and landing page', async () => {
      await sandbox.post('project/add-orders', [{ id: 'WB-1', tracker: '1000001', status: '1' }, { id: 'WB-2', tracker: '1000003', status: '1' }]);
      const answer = await sandbox.post('project/integration/order/list', { filters: [['id', 'in', ['WB-1', 'WB-2']]], extend: ['visit'] });
      const [first, second] = answer.body.data;
      expect(first.visit.source).toMatchObject({
        system_name: 'yandex_direct', display_name_by_level: ['Реклама', 'Яндекс Директ', 'Поиск'],
        utm_source: 'yandex', utm_medium: 'cpc', utm_campaign: 'poisk_divany_msk',
      });
      expect(first.visit.geo).toMatchObject({ country: 'Россия', city: 'Москва' });
      expect(first.page).toBe(first.visit.landing_page);
      expect(second.visit.source).toMatchObject({ system_name: 'vk_ads', display_name_by_level: ['Соцсети', 'VK', 'Таргет'], utm_source: 'vk' });
    });

    it('a visit recorded with a channel gets that channel\'s levels and tags', async () => {
      await sandbox.post('_sandbox/visits', [{ id: '3000001', source: { system_name: 'organic' } }]);
      const answer = await sandbox.post('project/site/visit/list', { filters: [['id', '=', '3000001']] });
      expect(answer.body.data[0].source).toMatchObject({
        display_name_by_level: ['Органика', 'Google'], referrer: 'https://www.google.com/', utm_source: null, utm_campaign: null,
      });
    });
  });
});
