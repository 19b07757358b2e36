import { normalizeAndFilters } from '../filters';
import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import { VisitListRequest, VisitListResponse, VisitParamsUpdateRequest } from '../types/visits.types';

export class VisitsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/site/visit/list (at most 1/s and 15/min; at most 10000 records). */
  list(req: VisitListRequest = {}): Promise<VisitListResponse> {
    return this.http.call('visitsList', { body: { ...req, filters: normalizeAndFilters(req.filters) } });
  }

  /** POST /project/site/visit/params/update (tracker_param1..50, see checkVisitParams). */
  updateParams(req: VisitParamsUpdateRequest): Promise<StatusResponse> {
    return this.http.call('visitsParamsUpdate', { body: req });
  }
}
