import * as hubspot from '../fixtures/crm/hubspot';
import { describePresetEndToEnd } from './crm-preset-e2e';

/** HubSpot: CRM v3 search (GTE on hs_lastmodifieddate, epoch ms), `paging.next.after`, owners, v4 associations. */
/** Products are line items (associations batch read, then line items batch read); history is `dealstage` with its history. */
const crm = hubspot.createCrm();

describePresetEndToEnd({
  preset: 'hubspot',
  fixture: { ...hubspot, handler: crm.handler },
  crm,
  isDealsList: (request) => request.path === '/crm/v3/objects/deals/search',
  changedSince: {
    read: (request) => request.body?.filterGroups?.[0]?.filters?.[0]?.value,
    format: (since) => String(since.getTime()),
  },
});
