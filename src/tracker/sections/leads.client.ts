import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import {
  LeadCreateRequest,
  LeadCreateResponse,
  LeadListRequest,
  LeadListResponse,
  LeadStatusListResponse,
  LeadUpdateRequest,
} from '../types/leads.types';

/** Leads without a CRM. */
export class LeadsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/leads/lead/list */
  list(req: LeadListRequest): Promise<LeadListResponse> {
    return this.http.call('leadsList', { body: req });
  }

  /** POST /project/leads/status/list */
  statuses(): Promise<LeadStatusListResponse> {
    return this.http.call('leadStatusesList', { body: {} });
  }

  /** POST /project/leads/lead/create */
  create(req: LeadCreateRequest): Promise<LeadCreateResponse> {
    return this.http.call('leadsCreate', { body: req });
  }

  /** POST /project/leads/lead/update: only the fields to change. */
  update(req: LeadUpdateRequest): Promise<StatusResponse> {
    return this.http.call('leadsUpdate', { body: req });
  }
}
