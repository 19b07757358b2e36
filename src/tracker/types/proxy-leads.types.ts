import { StatusResponse } from './common.types';

export interface ProxyLead {
  id: string;
  title: string;
  text: string;
  name: string;
  phone: string;
  email: string;
  /** Visit id. */
  tracker: string;
  /** UTC, 'YYYY-MM-DD HH:MM:SS'. */
  creation_date: string;
  /** Deal id in an external system. */
  order_id: string;
}

export interface ProxyLeadListResponse extends StatusResponse {
  ProxyLeads: ProxyLead[];
}

/** The field table writes `ProxyLead`, the sample response `ProxyLeads` as an array. */
export interface ProxyLeadResponse extends StatusResponse {
  ProxyLead?: ProxyLead;
  ProxyLeads?: ProxyLead[];
}
