/** Document kinds and shapes of dashboards (Resources: "Dashboard and widget"). */
export const DASHBOARD_KIND = 'dashboard';
export const WIDGET_KIND = 'dashboard_widget';

export interface DashboardDoc {
  title: string;
}

export interface WidgetFeed {
  displayName: string;
  description: string;
  systemName: string;
  valueType: 'percent' | 'currency';
  currency: string;
  colorLow: string;
  colorHigh: string;
}

export interface Widget {
  widgetId: string;
  placementData: { height: string; width: string; order: number };
  outputSettings: {
    displayName: string;
    systemName: string;
    iconName: string;
    color: string;
    currency: string;
    feeds: WidgetFeed[];
  };
}

export interface WidgetDoc extends Widget {
  dashboard_id: string;
}
