import { TrackerHttp } from '../http/tracker-http';
import { ProxyLeadListResponse, ProxyLeadResponse } from '../types/proxy-leads.types';

export class ProxyLeadsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** GET /project/proxy-leads?period=YYYY-MM-DD-YYYY-MM-DD (see formatProxyLeadPeriod). */
  list(period: string): Promise<ProxyLeadListResponse> {
    return this.http.call('proxyLeadsList', { query: { period } });
  }

  /** GET /project/proxy-leads/{proxyLeadId} */
  get(proxyLeadId: string | number): Promise<ProxyLeadResponse> {
    return this.http.call('proxyLeadsGet', { pathParams: { proxyLeadId } });
  }
}
