import { attributionOf, pickValues, writeFingerprint } from '../../../../src/engine/outbound/flows/write-back/attribution';
import type { Visit } from '../../../../src/tracker/types/visits.types';

function visit(overrides: Partial<Visit> = {}, source: Partial<Visit['source']> = {}): Visit {
  return {
    id: '1000042', date: '2026-11-20 10:15:00', landing_page: 'https://shop.example/sale?utm_source=yandex', host: 'shop.example',
    geo: { country: 'Russia', region: 'Moscow', city: 'Moscow', icon_url: '', country_iso: 'RU' },
    source: {
      referrer: 'https://yandex.ru/', system_name: 'yandex_direct', display_name: 'Yandex Direct',
      display_name_by_level: ['Paid search', 'Yandex Direct', 'Sale campaign'], icon_url: '',
      utm_source: 'yandex', utm_medium: 'cpc', utm_campaign: 'sale', utm_term: null, utm_content: 'banner-1', openstat: null,
      ...source,
    },
    ...overrides,
  } as Visit;
}

describe('attribution values of a visit', () => {
  it('takes every value from the Visit record', () => {
    expect(attributionOf(visit())).toEqual({
      channel: 'Paid search / Yandex Direct / Sale campaign', channel_1: 'Paid search', channel_2: 'Yandex Direct', channel_3: 'Sale campaign',
      utm_source: 'yandex', utm_medium: 'cpc', utm_campaign: 'sale', utm_term: '', utm_content: 'banner-1',
      landing_page: 'https://shop.example/sale?utm_source=yandex', referrer: 'https://yandex.ru/', city: 'Moscow',
      visit_id: '1000042', visit_date: '2026-11-20 10:15:00',
    });
  });

  it('falls back to display_name when the service gives no levels', () => {
    const values = attributionOf(visit({}, { display_name_by_level: [], display_name: 'Direct visits' }));
    expect([values.channel, values.channel_1, values.channel_2]).toEqual(['Direct visits', 'Direct visits', '']);
  });

  it('picks the planned values; the fingerprint changes with a value or with the field it goes to', () => {
    const fields = { channel: 'Источник', city: 'City' };
    const picked = pickValues(attributionOf(visit()), fields);
    expect(picked).toEqual({ channel: 'Paid search / Yandex Direct / Sale campaign', city: 'Moscow' });
    const base = writeFingerprint(picked, fields);
    expect(writeFingerprint({ ...picked }, { ...fields })).toBe(base);
    expect(writeFingerprint({ ...picked, city: 'Kazan' }, fields)).not.toBe(base);
    expect(writeFingerprint(picked, { ...fields, city: 'Город' })).not.toBe(base);
  });
});
