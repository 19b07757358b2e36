import type { MediaPlanTarget } from '../../../connectors/canonical';
import type { MediaPlanCreateRequest } from '../../../tracker/types/mediaplans.types';
import { mediaplansMapping } from '../../mappings/mediaplans';
import { mediaPlanLanded } from './landed-checks';
import { sendEach } from './per-record';
import type { StreamHandler } from './stream-handler';

/**
 * Created only: the service identifies a media plan by its own id, which the store does not keep yet. A create
 * call that may have landed is looked up (landed-checks.ts) and sent again only when absent.
 */
export const mediaplansHandler: StreamHandler<MediaPlanTarget, MediaPlanCreateRequest> = {
  ...mediaplansMapping,
  concurrent: false,
  send: (ctx, items) =>
    sendEach(items, ({ payload }) => ctx.tracker.mediaplans.create(payload), { landed: ({ payload }) => mediaPlanLanded(ctx.tracker, payload) }),
};
