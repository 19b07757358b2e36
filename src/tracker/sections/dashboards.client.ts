import { TrackerHttp } from '../http/tracker-http';
import { DashboardListResponse, WidgetListResponse } from '../types/dashboards.types';

export class DashboardsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** GET /project/dashboards */
  list(): Promise<DashboardListResponse> {
    return this.http.call('dashboardsList');
  }

  /** GET /project/dashboards/{dashboardId}/widgets */
  widgets(dashboardId: string): Promise<WidgetListResponse> {
    return this.http.call('dashboardWidgets', { pathParams: { dashboardId } });
  }
}
