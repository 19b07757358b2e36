import { normalizeAndFilters } from '../filters';
import { SerializedJson } from '../http/serialized-json';
import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import {
  CampaignContactListRequest,
  CampaignContactListResponse,
  CampaignListRequest,
  CampaignListResponse,
  ClientFeedResponse,
  ClientListRequest,
  ClientListResponse,
  ImportClient,
} from '../types/clients.types';

/** Clients and e-mail campaigns. */
export class ClientsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/clients/import: exactly one request (the engine splits a run into batches). */
  importBatch(clients: ImportClient[] | SerializedJson): Promise<StatusResponse> {
    return this.http.call('clientsImport', { body: clients });
  }

  /** POST /project/clients */
  list(req: ClientListRequest = {}): Promise<ClientListResponse> {
    return this.http.call('clientsList', { body: { ...req, filters: normalizeAndFilters(req.filters) } });
  }

  /** GET /project/clients/detail/feed?client= */
  feed(clientId: string | number): Promise<ClientFeedResponse> {
    return this.http.call('clientsFeed', { query: { client: clientId } });
  }

  /** POST /project/clients/campaign/contact/list */
  campaignContacts(req: CampaignContactListRequest): Promise<CampaignContactListResponse> {
    return this.http.call('campaignContacts', { body: req });
  }

  /** POST /project/clients/campaign/list */
  campaigns(req: CampaignListRequest = {}): Promise<CampaignListResponse> {
    return this.http.call('campaignsList', { body: req });
  }
}
