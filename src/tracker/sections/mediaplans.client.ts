import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import {
  MediaPlanCreateRequest,
  MediaPlanListRequest,
  MediaPlanListResponse,
  MediaPlanUpdateRequest,
} from '../types/mediaplans.types';

/** Monthly per-channel targets. Dates: first and last day of one month (see checkMediaPlan). */
export class MediaplansClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/mediaplan/target/list */
  list(req: MediaPlanListRequest): Promise<MediaPlanListResponse> {
    return this.http.call('mediaplansList', { body: req });
  }

  /** POST /project/mediaplan/target/create */
  create(req: MediaPlanCreateRequest): Promise<StatusResponse> {
    return this.http.call('mediaplansCreate', { body: req });
  }

  /** POST /project/mediaplan/target/update */
  update(req: MediaPlanUpdateRequest): Promise<StatusResponse> {
    return this.http.call('mediaplansUpdate', { body: req });
  }

  /** POST /project/mediaplan/target/delete */
  delete(id: string): Promise<StatusResponse> {
    return this.http.call('mediaplansDelete', { body: { id } });
  }
}
