/** Document kind and shape of proxy leads (Resources: "Proxy lead"). */
export const PROXY_LEAD_KIND = 'proxy_lead';

export interface ProxyLeadDoc {
  title: string;
  text: string;
  name: string;
  phone: string;
  email: string;
  /** visit id */
  tracker: string;
  /** `YYYY-MM-DD HH:MM:SS`, UTC */
  creation_date: string;
  order_id: string;
}
