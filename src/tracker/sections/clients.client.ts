import { BatchOutcome, runBatches } from '../batching';
import { normalizeAndFilters } from '../filters';
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
import { BatchSettings } from './batch-settings';

export interface ImportClientsResult {
  /** Clients in acknowledged batches. */
  imported: number;
  /** Clients in failed batches. */
  failed: number;
  failedBatches: number;
  batches: BatchOutcome<StatusResponse>[];
}

/** Clients and e-mail campaigns. */
export class ClientsClient {
  constructor(
    private readonly http: TrackerHttp,
    private readonly batching: BatchSettings,
  ) {}

  /** POST /project/clients/import, split into batches of `batchSize`. */
  async import(clients: ImportClient[]): Promise<ImportClientsResult> {
    const { batchSize, concurrency } = this.batching;
    const batches = await runBatches(clients, batchSize, concurrency, (batch) => this.importBatch(batch));
    const result: ImportClientsResult = { imported: 0, failed: 0, failedBatches: 0, batches };
    for (const b of batches) {
      if (b.response) result.imported += b.size;
      else {
        result.failed += b.size;
        result.failedBatches++;
      }
    }
    return result;
  }

  /** POST /project/clients/import: exactly one request. */
  importBatch(clients: ImportClient[]): Promise<StatusResponse> {
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
