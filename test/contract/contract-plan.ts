import { TRACKER_OPERATIONS } from '../../src/tracker';

/**
 * Which contract file exercises which operations (by `clientMethod`). The files run in
 * parallel workers, so each proves its own share; `coverage.spec` proves the shares add up
 * to TRACKER_OPERATIONS exactly.
 */
export const CONTRACT_PLAN = {
  'orders-clients': [
    'orders.list', 'orders.addBatch', 'orders.info', 'orders.externalUrl', 'orders.listStatuses', 'orders.setStatuses',
    'clients.importBatch', 'clients.list', 'clients.feed', 'clients.campaignContacts', 'clients.campaigns',
    'managers.add', 'managers.list', 'managers.update', 'managers.delete',
    'visits.list', 'visits.updateParams',
    'projects.list', 'projects.create', 'projects.trackingCodes',
  ],
  'marketing-speech': [
    'channels.list', 'channels.listExpenses', 'channels.addExpense', 'channels.updateExpense', 'channels.deleteExpense',
    'calltracking.create', 'calltracking.list', 'calltracking.update', 'calltracking.delete',
    'mediaplans.list', 'mediaplans.create', 'mediaplans.update', 'mediaplans.delete',
    'speech.addCall', 'speech.listDictionaries', 'speech.listPhrases', 'speech.createDictionary',
    'speech.updateDictionary', 'speech.deleteDictionary', 'speech.listCalls',
  ],
  'leads-events-files': [
    'emailtracking.list', 'emailtracking.attachment',
    'leads.list', 'leads.statuses', 'leads.create', 'leads.update',
    'proxyLeads.list', 'proxyLeads.get',
    'events.add', 'events.archive', 'events.log', 'events.send', 'events.bulkSend',
    'billing.transactions', 'billing.exportExcel',
    'dashboards.list', 'dashboards.widgets',
  ],
} as const;

export type ContractFile = keyof typeof CONTRACT_PLAN;

/** The final test of a contract file: every planned operation was acknowledged by the sandbox. */
export function expectPlanExercised(file: ContractFile, exercised: Set<string>): void {
  const missing = CONTRACT_PLAN[file].filter((op) => !exercised.has(op));
  expect(missing).toEqual([]);
}

export function allOperations(): string[] {
  return TRACKER_OPERATIONS.map((op) => op.clientMethod);
}
