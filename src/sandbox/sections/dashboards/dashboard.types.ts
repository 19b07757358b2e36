/** Document kinds and stored shapes of dashboards (Resources: "Dashboard and widget"). */
import type { Dashboard, Widget, WidgetFeed } from '../../../tracker/types/dashboards.types';

export type { Widget, WidgetFeed };

export const DASHBOARD_KIND = 'dashboard';
export const WIDGET_KIND = 'dashboard_widget';

export type DashboardDoc = Omit<Dashboard, 'id'>;

export interface WidgetDoc extends Widget {
  dashboard_id: string;
}
