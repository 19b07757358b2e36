import { TrackerHttp } from '../http/tracker-http';
import {
  CalltrackingCreateRequest,
  CalltrackingCreateResponse,
  CalltrackingListRequest,
  CalltrackingListResponse,
  CalltrackingUpdateRequest,
} from '../types/calltracking.types';
import { StatusResponse } from '../types/common.types';

/** Call tracking scripts. Deactivate = update with is_enabled 0; delete removes completely. */
export class CalltrackingClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/calltracking/script/create */
  create(req: CalltrackingCreateRequest): Promise<CalltrackingCreateResponse> {
    return this.http.call('calltrackingCreate', { body: req });
  }

  /** POST /project/calltracking/script/list */
  list(req: CalltrackingListRequest = {}): Promise<CalltrackingListResponse> {
    return this.http.call('calltrackingList', { body: req });
  }

  /** POST /project/calltracking/script/update */
  update(req: CalltrackingUpdateRequest): Promise<StatusResponse> {
    return this.http.call('calltrackingUpdate', { body: req });
  }

  /** POST /project/calltracking/script/delete */
  delete(id: number): Promise<StatusResponse> {
    return this.http.call('calltrackingDelete', { body: { id } });
  }
}
