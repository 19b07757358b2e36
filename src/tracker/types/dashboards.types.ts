import { StatusResponse } from './common.types';

export interface Dashboard {
  id: string;
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

export interface DashboardListResponse extends StatusResponse {
  dashboards: Dashboard[];
}

export interface WidgetListResponse extends StatusResponse {
  widgets: Widget[];
}
