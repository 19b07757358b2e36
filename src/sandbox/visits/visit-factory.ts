import { emptyTrackerParams, VisitRecord } from './visit-record';

export interface ChannelSeed {
  system_name: string;
  display_name: string;
  levels: string[];
  referrer: string;
  utm_source: string | null;
  utm_medium: string | null;
}

/** The channels of a sandbox project (visits' sources; the sections helper lists channels too). */
export const SANDBOX_CHANNELS: ChannelSeed[] = [
  { system_name: 'organic', display_name: 'Organic search', levels: ['Organic search', 'google'], referrer: 'https://www.google.com/', utm_source: null, utm_medium: null },
  { system_name: 'direct', display_name: 'Direct', levels: ['Direct'], referrer: '', utm_source: null, utm_medium: null },
  { system_name: 'google_ads', display_name: 'Google Ads', levels: ['Google Ads', 'search', 'brand'], referrer: 'https://www.google.com/', utm_source: 'google', utm_medium: 'cpc' },
  { system_name: 'yandex_direct', display_name: 'Yandex Direct', levels: ['Yandex Direct', 'search', 'generic'], referrer: 'https://yandex.ru/', utm_source: 'yandex', utm_medium: 'cpc' },
  { system_name: 'facebook', display_name: 'Facebook Ads', levels: ['Facebook Ads', 'feed'], referrer: 'https://facebook.com/', utm_source: 'facebook', utm_medium: 'social' },
  { system_name: 'email', display_name: 'E-mail', levels: ['E-mail', 'newsletter'], referrer: '', utm_source: 'newsletter', utm_medium: 'email' },
  { system_name: 'referral', display_name: 'Referral', levels: ['Referral', 'partner.example'], referrer: 'https://partner.example/', utm_source: null, utm_medium: null },
];

const GEOS = [
  { country: 'Russia', region: 'Moscow', city: 'Moscow', country_iso: 'RU' },
  { country: 'Russia', region: 'Saint Petersburg', city: 'Saint Petersburg', country_iso: 'RU' },
  { country: 'Kazakhstan', region: 'Almaty', city: 'Almaty', country_iso: 'KZ' },
  { country: 'Germany', region: 'Berlin', city: 'Berlin', country_iso: 'DE' },
];
const DEVICES = [
  { os: 'Windows', agent: 'Chrome', is_mobile: false },
  { os: 'macOS', agent: 'Safari', is_mobile: false },
  { os: 'Android', agent: 'Chrome Mobile', is_mobile: true },
  { os: 'iOS', agent: 'Mobile Safari', is_mobile: true },
];
const ICONS = 'https://icons.sandbox.invalid';

export type VisitOverrides = Partial<Omit<VisitRecord, 'source' | 'geo' | 'device'>> & {
  source?: Partial<VisitRecord['source']>;
  geo?: Partial<VisitRecord['geo']>;
  device?: Partial<VisitRecord['device']>;
};

/**
 * A complete visit from a few choices; `variant` picks channel, geo and device so that demo data
 * is deterministic. Overrides win over the generated values.
 */
export function buildVisit(id: string, date: string, variant: number, overrides: VisitOverrides = {}): VisitRecord {
  const channel = SANDBOX_CHANNELS.find((c) => c.system_name === overrides.source?.system_name)
    ?? SANDBOX_CHANNELS[variant % SANDBOX_CHANNELS.length];
  const geo = GEOS[variant % GEOS.length];
  const device = DEVICES[(variant >> 2) % DEVICES.length];
  const campaign = channel.utm_medium ? `campaign_${(variant % 5) + 1}` : null;
  const visit: VisitRecord = {
    id, first_visit_id: id, date,
    landing_page: `https://shop.example/landing/${(variant % 9) + 1}`, host: 'shop.example',
    google_client_id: `GA1.2.${100000 + variant}.${1600000000 + variant}`, metrics_client_id: `${1700000000000 + variant}`,
    gclid: channel.system_name === 'google_ads' ? `gclid_${id}` : null, fbc: null, fbp: null,
    ip: `10.${(variant >> 8) & 255}.${variant & 255}.${(variant % 200) + 1}`,
    tracker_param1: null, tracker_param2: null, tracker_param3: null, tracker_param4: null, tracker_param5: null,
    tracker_params: emptyTrackerParams(),
    device: { ...device, os_icon: `${ICONS}/os/${device.os}.png`, agent_icon: `${ICONS}/browser/${device.agent}.png` },
    source: {
      referrer: channel.referrer, system_name: channel.system_name, display_name: channel.display_name,
      display_name_by_level: channel.levels, icon_url: `${ICONS}/channel/${channel.system_name}.png`,
      utm_source: channel.utm_source, utm_medium: channel.utm_medium, utm_campaign: campaign,
      utm_term: campaign ? `term_${variant % 7}` : null, utm_content: campaign ? `ad_${variant % 3}` : null, openstat: null,
    },
    geo: { ...geo, icon_url: `${ICONS}/flags/${geo.country_iso}.png` },
    order_ids: [], cost: channel.utm_medium === 'cpc' ? 12 + (variant % 30) : 0, ab_test: [],
  };
  return {
    ...visit, ...overrides,
    source: { ...visit.source, ...overrides.source },
    geo: { ...visit.geo, ...overrides.geo },
    device: { ...visit.device, ...overrides.device },
    tracker_params: { ...visit.tracker_params, ...overrides.tracker_params },
  } as VisitRecord;
}
