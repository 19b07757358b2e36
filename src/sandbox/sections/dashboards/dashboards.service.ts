import { Injectable } from '@nestjs/common';
import { notFound } from '../../errors/sandbox-error';
import { SandboxDocumentStore } from '../../storage/document-store';
import { DASHBOARD_KIND, DashboardDoc, WIDGET_KIND, Widget, WidgetDoc } from './dashboard.types';

/** Dashboards and their widgets: read only (they are made in the service's interface). */
@Injectable()
export class DashboardsService {
  constructor(private readonly store: SandboxDocumentStore) {}

  async list(project: number): Promise<{ id: string; title: string }[]> {
    const docs = await this.store.list<DashboardDoc>(project, DASHBOARD_KIND);
    return docs.map(({ id, title }) => ({ id, title }));
  }

  /** Widgets of one dashboard in their placement order; an unknown dashboard is a 404. */
  async widgets(project: number, dashboardId: string): Promise<Widget[]> {
    if (!(await this.store.get(project, DASHBOARD_KIND, dashboardId))) throw notFound(`dashboard ${dashboardId}`);
    const docs = await this.store.list<WidgetDoc>(project, WIDGET_KIND, (widget) => widget.dashboard_id === dashboardId);
    return docs
      .sort((a, b) => a.placementData.order - b.placementData.order)
      .map(({ widgetId, placementData, outputSettings }) => ({ widgetId, placementData, outputSettings }));
  }
}
