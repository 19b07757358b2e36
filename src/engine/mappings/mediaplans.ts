import type { MediaPlanTarget } from '../../connectors/canonical';
import { checkMediaPlan } from '../../tracker/payload-checks';
import type { MediaPlanCreateRequest, MediaPlanMetric } from '../../tracker/types/mediaplans.types';
import { mediaPlanLanded } from '../pipeline/sending/landed-checks';
import { sendEach } from '../pipeline/sending/per-record';
import type { StreamHandler } from '../pipeline/sending/stream-handler';

/** Bump when a change of the mapping or checks changes what is sent: every media plan is sent again once. */
export const MEDIAPLAN_MAPPING_VERSION = 1;

/**
 * Created only: the service identifies a media plan by its own id, which the store does not keep yet. A create
 * call that may have landed is looked up (landed-checks.ts) and sent again only when absent.
 */
export const mediaplansHandler: StreamHandler<MediaPlanTarget, MediaPlanCreateRequest> = {
  stream: 'mediaplans',
  mappingVersion: MEDIAPLAN_MAPPING_VERSION,
  toPayload: mediaPlanToRequest,
  check: (p) => checkMediaPlan(p),
  concurrent: false,
  send: (ctx, items) =>
    sendEach(items, ({ payload }) => ctx.tracker.mediaplans.create(payload), { landed: ({ payload }) => mediaPlanLanded(ctx.tracker, payload) }),
};

export function mediaPlanToRequest(t: MediaPlanTarget): MediaPlanCreateRequest {
  const metrics: MediaPlanMetric[] = [];
  if (t.leads != null) metrics.push({ name: 'leads', value: t.leads });
  if (t.marketing_cost != null) metrics.push({ name: 'marketing_cost', value: t.marketing_cost });
  if (t.cpl != null) metrics.push({ name: 'cpl', value: t.cpl });
  return { channel: t.channel, date_from: t.date_from, date_to: t.date_to, metrics };
}
