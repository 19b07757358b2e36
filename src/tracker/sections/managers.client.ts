import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import { ManagerInput, ManagerListResponse, ManagerUpdate } from '../types/managers.types';

export class ManagersClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/integration/manager/add */
  add(m: ManagerInput): Promise<StatusResponse> {
    return this.http.call('managersAdd', { body: m });
  }

  /** POST /project/integration/manager/list */
  list(): Promise<ManagerListResponse> {
    return this.http.call('managersList', { body: {} });
  }

  /** POST /project/integration/manager/update: only the fields to change. */
  update(m: ManagerUpdate): Promise<StatusResponse> {
    return this.http.call('managersUpdate', { body: m });
  }

  /** POST /project/integration/manager/delete */
  delete(id: string | number): Promise<StatusResponse> {
    return this.http.call('managersDelete', { body: { id } });
  }
}
