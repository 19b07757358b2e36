import { emptyTrackerParams, VisitRecord } from './visit-record';
import { chooseSource, SANDBOX_CHANNELS, SANDBOX_GEOS, SANDBOX_HOST } from './visit-sources';

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
  const { channel, campaign, term, content, levels, landingPage } = chooseSource(variant,
    SANDBOX_CHANNELS.find((c) => c.system_name === overrides.source?.system_name));
  const geo = SANDBOX_GEOS[variant % SANDBOX_GEOS.length];
  const device = DEVICES[(variant >> 2) % DEVICES.length];
  const visit: VisitRecord = {
    id, first_visit_id: id, date,
    landing_page: landingPage, host: SANDBOX_HOST,
    google_client_id: `GA1.2.${100000 + variant}.${1600000000 + variant}`, metrics_client_id: `${1700000000000 + variant}`,
    gclid: channel.system_name === 'google_ads' ? `gclid_${id}` : null, fbc: null, fbp: null,
    ip: `10.${(variant >> 8) & 255}.${variant & 255}.${(variant % 200) + 1}`,
    tracker_param1: null, tracker_param2: null, tracker_param3: null, tracker_param4: null, tracker_param5: null,
    tracker_params: emptyTrackerParams(),
    device: { ...device, os_icon: `${ICONS}/os/${device.os}.png`, agent_icon: `${ICONS}/browser/${device.agent}.png` },
    source: {
      referrer: channel.referrer, system_name: channel.system_name, display_name: channel.display_name,
      display_name_by_level: levels, icon_url: `${ICONS}/channel/${channel.system_name}.png`,
      utm_source: channel.utm_source, utm_medium: channel.utm_medium, utm_campaign: campaign?.name ?? null,
      utm_term: term, utm_content: content, openstat: null,
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
