/** Document kind and stored shape of proxy leads (Resources: "Proxy lead"). */
import type { ProxyLead } from '../../../tracker/types/proxy-leads.types';

export const PROXY_LEAD_KIND = 'proxy_lead';

export type ProxyLeadDoc = Omit<ProxyLead, 'id'>;
