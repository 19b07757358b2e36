import { SeedContext } from '../common/seed-context';
import { DASHBOARD_KIND, WIDGET_KIND, WidgetDoc, WidgetFeed } from './dashboard.types';

const feed = (systemName: string, displayName: string, valueType: WidgetFeed['valueType']): WidgetFeed => ({
  displayName, description: `${displayName} for the selected period`, systemName, valueType, currency: 'RUB',
  colorLow: '#e53935', colorHigh: '#43a047',
});

const DASHBOARDS: { title: string; widgets: [string, string, string, WidgetFeed[]][] }[] = [
  { title: 'Marketing overview', widgets: [
    ['revenue', 'Revenue', 'chart-line', [feed('revenue', 'Revenue', 'currency')]],
    ['marketing_cost', 'Marketing cost', 'wallet', [feed('marketing_cost', 'Marketing cost', 'currency')]],
    ['roi', 'ROI', 'percent', [feed('roi', 'ROI', 'percent'), feed('romi', 'ROMI', 'percent')]],
  ] },
  { title: 'Sales funnel', widgets: [
    ['leads', 'Leads', 'users', [feed('cpl', 'Cost per lead', 'currency')]],
    ['conversion', 'Conversion', 'filter', [feed('conversion', 'Lead to sale', 'percent')]],
  ] },
  { title: 'Call tracking', widgets: [
    ['calls', 'Calls', 'phone', [feed('call_cost', 'Cost per call', 'currency'), feed('answered', 'Answered', 'percent')]],
  ] },
];

/** Three dashboards with their widgets. */
export async function seedDashboards({ store, project }: SeedContext): Promise<void> {
  let widgetNumber = 0;
  for (const dashboard of DASHBOARDS) {
    const stored = await store.insert(project, DASHBOARD_KIND, { title: dashboard.title });
    for (const [order, [systemName, displayName, iconName, feeds]] of dashboard.widgets.entries()) {
      widgetNumber += 1;
      const widget: WidgetDoc = {
        dashboard_id: stored.id, widgetId: `w${project}-${widgetNumber}`,
        placementData: { height: '2', width: order === 0 ? '12' : '6', order },
        outputSettings: { displayName, systemName, iconName, color: '#3f51b5', currency: 'RUB', feeds },
      };
      await store.insert(project, WIDGET_KIND, widget);
    }
  }
}
