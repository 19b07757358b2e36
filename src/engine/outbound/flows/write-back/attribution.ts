import { createHash } from 'crypto';
import type { AttributionValue } from '../../../../connectors/connector-definition';
import type { Visit } from '../../../../tracker/types/visits.types';

/**
 * The attribution values of one visit (the service's Visit record): channel levels from
 * `source.display_name_by_level` (or `display_name` when the service gives no levels), the UTM tags,
 * landing page, referrer, city, the visit's id and date. A value the visit lacks is ''.
 */
export function attributionOf(visit: Visit): Record<AttributionValue, string> {
  const source = visit.source ?? ({} as Visit['source']);
  const levels = (source.display_name_by_level?.length ? source.display_name_by_level : [source.display_name])
    .map(text)
    .filter((level) => level !== '');
  return {
    channel: levels.join(' / '),
    channel_1: levels[0] ?? '',
    channel_2: levels[1] ?? '',
    channel_3: levels[2] ?? '',
    utm_source: text(source.utm_source),
    utm_medium: text(source.utm_medium),
    utm_campaign: text(source.utm_campaign),
    utm_term: text(source.utm_term),
    utm_content: text(source.utm_content),
    landing_page: text(visit.landing_page),
    referrer: text(source.referrer),
    city: text(visit.geo?.city),
    visit_id: text(visit.id),
    visit_date: text(visit.date),
  };
}

/** The values a connection writes: those its plan names, in the plan's order. */
export function pickValues(all: Record<AttributionValue, string>, fields: Partial<Record<AttributionValue, string>>): Partial<Record<AttributionValue, string>> {
  const picked: Partial<Record<AttributionValue, string>> = {};
  for (const value of Object.keys(fields) as AttributionValue[]) picked[value] = all[value];
  return picked;
}

/** What was written where: a changed value or a field moved to another CRM field both write again. */
export function writeFingerprint(values: Partial<Record<AttributionValue, string>>, fields: Partial<Record<AttributionValue, string>>): string {
  const pairs = (Object.keys(values) as AttributionValue[]).sort().map((value) => [value, fields[value], values[value]]);
  return `w1:${createHash('sha1').update(JSON.stringify(pairs)).digest('hex')}`;
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).trim();
}
