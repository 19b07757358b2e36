import type { MediaPlanTarget } from '../../connectors/canonical';
import { checkMediaPlan } from '../../tracker/payload-checks';
import type { MediaPlanCreateRequest, MediaPlanMetric } from '../../tracker/types/mediaplans.types';
import type { StreamMapping } from './stream-mapping';

/** Bump when a change of the mapping or checks changes what is sent: every media plan is sent again once. */
export const MEDIAPLAN_MAPPING_VERSION = 1;

export const mediaplansMapping: StreamMapping<MediaPlanTarget, MediaPlanCreateRequest> = {
  stream: 'mediaplans',
  mappingVersion: MEDIAPLAN_MAPPING_VERSION,
  toPayload: mediaPlanToRequest,
  check: (p) => checkMediaPlan(p),
};

export function mediaPlanToRequest(t: MediaPlanTarget): MediaPlanCreateRequest {
  const metrics: MediaPlanMetric[] = [];
  if (t.leads != null) metrics.push({ name: 'leads', value: t.leads });
  if (t.marketing_cost != null) metrics.push({ name: 'marketing_cost', value: t.marketing_cost });
  if (t.cpl != null) metrics.push({ name: 'cpl', value: t.cpl });
  return { channel: t.channel, date_from: t.date_from, date_to: t.date_to, metrics };
}
