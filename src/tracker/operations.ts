/**
 * Every operation of the specification, once: method, path exactly as the spec writes it,
 * and the client method that performs it. Section clients take their descriptor from
 * here, so the coverage test (which holds this list to test/fixtures/tracker/service-operations.json,
 * the specification's operations as data) checks what really runs.
 */

export type HttpMethod = 'GET' | 'POST';

export interface TrackerOperation {
  method: HttpMethod;
  /** As in the specification, with `{param}` placeholders. */
  path: string;
  /** 'section.method' on a TrackerClient instance. */
  clientMethod: string;
  /** Takes the `project` query parameter (every /project/ path, and billing). */
  projectScoped: boolean;
  /** The answer is a file, not JSON. */
  binary?: boolean;
  /**
   * Each call creates a new record (no id of ours makes it an upsert): a call that may have landed (a timeout,
   * a dropped connection, a 5xx) is not repeated by the transport, which would create the record twice.
   */
  createsRecord?: boolean;
  /**
   * A write the service acknowledges with `"status": "success"` (specification, general rule 5): a 2xx answer
   * without it (a proxy's maintenance page, a web app's index.html at a wrong base_url, an empty body) took nothing
   * we can count on, and the records it carried are not delivered.
   */
  acknowledged?: boolean;
  /**
   * Not in the specification: the operation's path and shapes come from public clients of the real service
   * (named in `source`). The coverage test holds the other operations to the specification.
   */
  outsideSpec?: { source: string };
}

export const OPS = {
  ordersList: { method: 'POST', path: '/project/integration/order/list', clientMethod: 'orders.list', projectScoped: true },
  ordersAdd: { method: 'POST', path: '/project/add-orders', clientMethod: 'orders.addBatch', projectScoped: true, acknowledged: true },
  ordersInfo: { method: 'GET', path: '/project/orders/{orderId}/info', clientMethod: 'orders.info', projectScoped: true },
  ordersExternalUrl: { method: 'GET', path: '/project/orders/{orderId}/external-url', clientMethod: 'orders.externalUrl', projectScoped: true },
  orderStatusesList: {
    method: 'POST', path: '/project/integration/status/list', clientMethod: 'orders.listStatuses', projectScoped: true,
    outsideSpec: { source: 'public clients: an n8n community node, a Ruby gem (resources/orders.rb), Python sync scripts (get_all_statuses)' },
  },
  orderStatusesSet: {
    method: 'POST', path: '/project/set-statuses', clientMethod: 'orders.setStatuses', projectScoped: true,
    outsideSpec: { source: 'public clients: a Ruby gem (resources/orders.rb, set_statuses), a PHP sync script (CronExport.php)' },
  },
  channelsList: { method: 'POST', path: '/project/analytics/source/list', clientMethod: 'channels.list', projectScoped: true },
  expensesList: { method: 'POST', path: '/project/analytics/source/cost/list', clientMethod: 'channels.listExpenses', projectScoped: true },
  expensesAdd: { method: 'POST', path: '/project/analytics/source/cost/add', clientMethod: 'channels.addExpense', projectScoped: true, createsRecord: true, acknowledged: true },
  expensesUpdate: { method: 'POST', path: '/project/analytics/source/cost/update', clientMethod: 'channels.updateExpense', projectScoped: true, acknowledged: true },
  expensesDelete: { method: 'POST', path: '/project/analytics/source/cost/delete', clientMethod: 'channels.deleteExpense', projectScoped: true, acknowledged: true },
  calltrackingCreate: { method: 'POST', path: '/project/calltracking/script/create', clientMethod: 'calltracking.create', projectScoped: true, createsRecord: true },
  calltrackingList: { method: 'POST', path: '/project/calltracking/script/list', clientMethod: 'calltracking.list', projectScoped: true },
  calltrackingUpdate: { method: 'POST', path: '/project/calltracking/script/update', clientMethod: 'calltracking.update', projectScoped: true },
  calltrackingDelete: { method: 'POST', path: '/project/calltracking/script/delete', clientMethod: 'calltracking.delete', projectScoped: true },
  clientsImport: { method: 'POST', path: '/project/clients/import', clientMethod: 'clients.importBatch', projectScoped: true, acknowledged: true },
  clientsList: { method: 'POST', path: '/project/clients', clientMethod: 'clients.list', projectScoped: true },
  clientsFeed: { method: 'GET', path: '/project/clients/detail/feed', clientMethod: 'clients.feed', projectScoped: true },
  campaignContacts: { method: 'POST', path: '/project/clients/campaign/contact/list', clientMethod: 'clients.campaignContacts', projectScoped: true },
  campaignsList: { method: 'POST', path: '/project/clients/campaign/list', clientMethod: 'clients.campaigns', projectScoped: true },
  mediaplansList: { method: 'POST', path: '/project/mediaplan/target/list', clientMethod: 'mediaplans.list', projectScoped: true },
  mediaplansCreate: { method: 'POST', path: '/project/mediaplan/target/create', clientMethod: 'mediaplans.create', projectScoped: true, createsRecord: true, acknowledged: true },
  mediaplansUpdate: { method: 'POST', path: '/project/mediaplan/target/update', clientMethod: 'mediaplans.update', projectScoped: true, acknowledged: true },
  mediaplansDelete: { method: 'POST', path: '/project/mediaplan/target/delete', clientMethod: 'mediaplans.delete', projectScoped: true, acknowledged: true },
  speechCallAdd: { method: 'POST', path: '/project/speech/call/add', clientMethod: 'speech.addCall', projectScoped: true, createsRecord: true },
  speechDictionaryList: { method: 'POST', path: '/project/speech/dictionary/list', clientMethod: 'speech.listDictionaries', projectScoped: true },
  speechPhraseList: { method: 'POST', path: '/project/speech/dictionary/custom/phrase/list', clientMethod: 'speech.listPhrases', projectScoped: true },
  speechDictionaryCreate: { method: 'POST', path: '/project/speech/dictionary/custom/create', clientMethod: 'speech.createDictionary', projectScoped: true, createsRecord: true },
  speechDictionaryUpdate: { method: 'POST', path: '/project/speech/dictionary/custom/update', clientMethod: 'speech.updateDictionary', projectScoped: true },
  speechDictionaryDelete: { method: 'POST', path: '/project/speech/dictionary/custom/delete', clientMethod: 'speech.deleteDictionary', projectScoped: true },
  speechCallList: { method: 'POST', path: '/project/speech/call/list', clientMethod: 'speech.listCalls', projectScoped: true },
  visitsList: { method: 'POST', path: '/project/site/visit/list', clientMethod: 'visits.list', projectScoped: true },
  visitsParamsUpdate: { method: 'POST', path: '/project/site/visit/params/update', clientMethod: 'visits.updateParams', projectScoped: true },
  emailsList: { method: 'POST', path: '/project/emailtracking/email/list', clientMethod: 'emailtracking.list', projectScoped: true },
  emailAttachment: { method: 'GET', path: '/project/emailtracking/email/{email_id}/attachment/{attachment_id}', clientMethod: 'emailtracking.attachment', projectScoped: true, binary: true },
  leadsList: { method: 'POST', path: '/project/leads/lead/list', clientMethod: 'leads.list', projectScoped: true },
  leadStatusesList: { method: 'POST', path: '/project/leads/status/list', clientMethod: 'leads.statuses', projectScoped: true },
  leadsCreate: { method: 'POST', path: '/project/leads/lead/create', clientMethod: 'leads.create', projectScoped: true, createsRecord: true, acknowledged: true },
  leadsUpdate: { method: 'POST', path: '/project/leads/lead/update', clientMethod: 'leads.update', projectScoped: true, acknowledged: true },
  proxyLeadsList: { method: 'GET', path: '/project/proxy-leads', clientMethod: 'proxyLeads.list', projectScoped: true },
  proxyLeadsGet: { method: 'GET', path: '/project/proxy-leads/{proxyLeadId}', clientMethod: 'proxyLeads.get', projectScoped: true },
  eventsAdd: { method: 'POST', path: '/project/events/add', clientMethod: 'events.add', projectScoped: true, createsRecord: true },
  eventsArchive: { method: 'POST', path: '/project/events/meta/{eventId}/archive', clientMethod: 'events.archive', projectScoped: true },
  eventsLog: { method: 'GET', path: '/project/events/log', clientMethod: 'events.log', projectScoped: true },
  eventsSend: { method: 'POST', path: '/project/events/send', clientMethod: 'events.send', projectScoped: true, createsRecord: true },
  eventsBulkSend: { method: 'POST', path: '/project/events/bulk/send', clientMethod: 'events.bulkSend', projectScoped: true, createsRecord: true, acknowledged: true },
  managersAdd: { method: 'POST', path: '/project/integration/manager/add', clientMethod: 'managers.add', projectScoped: true, acknowledged: true },
  managersList: { method: 'POST', path: '/project/integration/manager/list', clientMethod: 'managers.list', projectScoped: true },
  managersUpdate: { method: 'POST', path: '/project/integration/manager/update', clientMethod: 'managers.update', projectScoped: true, acknowledged: true },
  managersDelete: { method: 'POST', path: '/project/integration/manager/delete', clientMethod: 'managers.delete', projectScoped: true, acknowledged: true },
  projectsList: { method: 'GET', path: '/user/projects', clientMethod: 'projects.list', projectScoped: false },
  projectsCreate: { method: 'POST', path: '/account/project/create', clientMethod: 'projects.create', projectScoped: false, createsRecord: true },
  trackingCodesList: { method: 'POST', path: '/project/settings/counter/list', clientMethod: 'projects.trackingCodes', projectScoped: true },
  billingTransactions: { method: 'POST', path: '/user/billing/transactions/list', clientMethod: 'billing.transactions', projectScoped: true },
  billingExportExcel: { method: 'POST', path: '/user/billing/transactions/list/export/excel', clientMethod: 'billing.exportExcel', projectScoped: true, binary: true },
  dashboardsList: { method: 'GET', path: '/project/dashboards', clientMethod: 'dashboards.list', projectScoped: true },
  dashboardWidgets: { method: 'GET', path: '/project/dashboards/{dashboardId}/widgets', clientMethod: 'dashboards.widgets', projectScoped: true },
} as const satisfies Record<string, TrackerOperation>;

export type OperationKey = keyof typeof OPS;

export const TRACKER_OPERATIONS: readonly TrackerOperation[] = Object.values(OPS);

/** The operations of the specification (TRACKER_OPERATIONS without those known only from public clients). */
export const SPEC_OPERATIONS: readonly TrackerOperation[] = TRACKER_OPERATIONS.filter((op) => !op.outsideSpec);
