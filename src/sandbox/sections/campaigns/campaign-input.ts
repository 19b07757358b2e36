import { badRequest } from '../../errors/sandbox-error';
import { FieldReader, describe, isPlainObject } from '../common/field-reader';
import { Condition, readTripleFilters } from '../common/record-query';
import { CAMPAIGN_FILTER_FIELDS, RECIPIENT_STATUSES, RecipientStatus } from './campaign.types';

/**
 * The campaign list takes `filters` only as an array of triples (the specification's filter
 * table lists the campaign list under that shape alone), on `id`, `title`, `status_id`.
 */
export function readCampaignFilters(reader: FieldReader): Condition[] {
  if (isPlainObject(reader.raw('filters'))) {
    throw badRequest('filters', 'filters: must be an array of [field, operator, value] (the campaign list takes no {and: ...})');
  }
  return readTripleFilters(reader, 'filters', { fields: CAMPAIGN_FILTER_FIELDS });
}

/** `metric_ids`: required, one or more recipient statuses; repeated ones count once. */
export function readMetricIds(reader: FieldReader): RecipientStatus[] {
  const ids = reader.requiredStringArray('metric_ids');
  if (ids.length === 0) {
    throw badRequest('metric_ids', `metric_ids: give one or more of ${RECIPIENT_STATUSES.join(', ')}`);
  }
  ids.forEach((id, index) => {
    if (!RECIPIENT_STATUSES.includes(id as RecipientStatus)) {
      const path = `metric_ids[${index}]`;
      throw badRequest(path, `${path}: must be one of ${RECIPIENT_STATUSES.join(', ')}, got "${id}"`);
    }
  });
  return [...new Set(ids as RecipientStatus[])];
}

/** `campaign_ids`: required array of integer campaign ids. */
export function readCampaignIds(reader: FieldReader): number[] {
  const ids = reader.requiredArray('campaign_ids');
  ids.forEach((id, index) => {
    if (typeof id !== 'number' || !Number.isInteger(id)) {
      const path = `campaign_ids[${index}]`;
      throw badRequest(path, `${path}: must be an integer campaign id, got ${describe(id)}`);
    }
  });
  return ids as number[];
}
