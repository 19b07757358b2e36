/**
 * Where the sandbox's visits come from: channels with their levels (as the service names them for a
 * Russian shop), the campaigns of the paid ones (UTM tags), cities and landing pages. Demo data picks
 * from these by a visit's variant, so it is the same on every start.
 */

export interface CampaignSeed {
  /** utm_campaign */
  name: string;
  /** the level under the channel's own levels (Поиск, РСЯ, Таргет...), if the channel has one per campaign */
  level: string | null;
  /** utm_term values */
  terms: string[];
}

export interface ChannelSeed {
  system_name: string;
  display_name: string;
  levels: string[];
  referrer: string;
  utm_source: string | null;
  utm_medium: string | null;
  /** paid and e-mail channels tag their visits with a campaign; the others carry no UTM tags */
  campaigns: CampaignSeed[];
}

const searchAds = (name: string, level: string, terms: string[]): CampaignSeed => ({ name, level, terms });

/** The channels of a sandbox project (visits' sources; the sections list them too). */
export const SANDBOX_CHANNELS: ChannelSeed[] = [
  {
    system_name: 'yandex_direct', display_name: 'Яндекс Директ', levels: ['Реклама', 'Яндекс Директ'],
    referrer: 'https://yandex.ru/', utm_source: 'yandex', utm_medium: 'cpc',
    campaigns: [
      searchAds('poisk_divany_msk', 'Поиск', ['купить диван', 'угловой диван недорого', 'диван кровать']),
      searchAds('rsya_retargeting', 'РСЯ', ['ретаргетинг']),
    ],
  },
  {
    system_name: 'organic', display_name: 'Органика', levels: ['Органика', 'Google'],
    referrer: 'https://www.google.com/', utm_source: null, utm_medium: null, campaigns: [],
  },
  {
    system_name: 'vk_ads', display_name: 'VK Реклама', levels: ['Соцсети', 'VK'],
    referrer: 'https://vk.com/', utm_source: 'vk', utm_medium: 'cpc',
    campaigns: [searchAds('target_lookalike', 'Таргет', ['похожие аудитории']), searchAds('target_retargeting', 'Таргет', ['посетители сайта'])],
  },
  {
    system_name: 'direct', display_name: 'Прямые заходы', levels: ['Прямые заходы'],
    referrer: '', utm_source: null, utm_medium: null, campaigns: [],
  },
  {
    system_name: 'google_ads', display_name: 'Google Ads', levels: ['Реклама', 'Google Ads'],
    referrer: 'https://www.google.com/', utm_source: 'google', utm_medium: 'cpc',
    campaigns: [
      searchAds('search_brand', 'Поиск', ['мебель шоп', 'shop example']),
      searchAds('pmax_catalog', 'Performance Max', ['каталог мебели']),
    ],
  },
  {
    system_name: 'organic_yandex', display_name: 'Органика Яндекс', levels: ['Органика', 'Яндекс'],
    referrer: 'https://yandex.ru/', utm_source: null, utm_medium: null, campaigns: [],
  },
  {
    system_name: 'facebook', display_name: 'Facebook Ads', levels: ['Соцсети', 'Facebook Ads'],
    referrer: 'https://facebook.com/', utm_source: 'facebook', utm_medium: 'social',
    campaigns: [searchAds('feed_sale', 'Лента', ['распродажа'])],
  },
  {
    system_name: 'email', display_name: 'E-mail рассылка', levels: ['E-mail', 'Рассылка'],
    referrer: '', utm_source: 'newsletter', utm_medium: 'email',
    campaigns: [{ name: 'digest_weekly', level: null, terms: ['дайджест'] }, { name: 'sale_announce', level: null, terms: ['анонс распродажи'] }],
  },
  {
    system_name: 'referral', display_name: 'Переходы с сайтов', levels: ['Переходы с сайтов', 'partner.example'],
    referrer: 'https://partner.example/', utm_source: null, utm_medium: null, campaigns: [],
  },
];

export const SANDBOX_GEOS = [
  { country: 'Россия', region: 'Москва', city: 'Москва', country_iso: 'RU' },
  { country: 'Россия', region: 'Санкт-Петербург', city: 'Санкт-Петербург', country_iso: 'RU' },
  { country: 'Россия', region: 'Свердловская область', city: 'Екатеринбург', country_iso: 'RU' },
  { country: 'Россия', region: 'Новосибирская область', city: 'Новосибирск', country_iso: 'RU' },
  { country: 'Россия', region: 'Республика Татарстан', city: 'Казань', country_iso: 'RU' },
  { country: 'Россия', region: 'Краснодарский край', city: 'Краснодар', country_iso: 'RU' },
  { country: 'Россия', region: 'Нижегородская область', city: 'Нижний Новгород', country_iso: 'RU' },
  { country: 'Казахстан', region: 'Алматы', city: 'Алматы', country_iso: 'KZ' },
];

export const SANDBOX_HOST = 'shop.example';
const LANDING_PATHS = ['/', '/catalog/divany', '/catalog/divany/uglovye', '/catalog/kresla', '/catalog/krovati', '/sale'];

export interface VisitSourceChoice {
  channel: ChannelSeed;
  campaign: CampaignSeed | null;
  term: string | null;
  content: string | null;
  levels: string[];
  landingPage: string;
}

/** The channel (unless given), campaign, levels and landing page of visit `variant`. */
export function chooseSource(variant: number, channel?: ChannelSeed): VisitSourceChoice {
  const picked = channel ?? SANDBOX_CHANNELS[variant % SANDBOX_CHANNELS.length];
  const round = Math.floor(variant / SANDBOX_CHANNELS.length);
  const campaign = picked.campaigns.length ? picked.campaigns[round % picked.campaigns.length] : null;
  const term = campaign ? campaign.terms[(variant >> 1) % campaign.terms.length] : null;
  const content = campaign ? `ad_${1040 + (variant % 3)}` : null;
  const path = LANDING_PATHS[(variant >> 2) % LANDING_PATHS.length];
  const tags = campaign && picked.utm_source && picked.utm_medium
    ? `?${new URLSearchParams({ utm_source: picked.utm_source, utm_medium: picked.utm_medium, utm_campaign: campaign.name, utm_term: term!, utm_content: content! })}`
    : '';
  return {
    channel: picked, campaign, term, content,
    levels: campaign?.level ? [...picked.levels, campaign.level] : picked.levels,
    landingPage: `https://${SANDBOX_HOST}${path}${tags}`,
  };
}
