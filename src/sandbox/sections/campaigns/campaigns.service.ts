import { Injectable } from '@nestjs/common';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { matchesAll, pageOf, readPaging } from '../common/record-query';
import { readCampaignFilters, readCampaignIds, readMetricIds } from './campaign-input';
import { CAMPAIGN_KIND, CampaignDoc, CampaignListItem, CampaignRecipient, RecipientStatus } from './campaign.types';

/** E-mail campaigns and their recipients (read-only, as the specification offers them). */
@Injectable()
export class CampaignsService {
  constructor(private readonly store: SandboxDocumentStore) {}

  /** `filters` triples on id, title, status_id; `limit`, `offset`; `total` counts before paging. */
  async list(project: number, body: unknown): Promise<{ data: CampaignListItem[]; total: number }> {
    const reader = FieldReader.ofListBody(body);
    const filters = readCampaignFilters(reader);
    const paging = readPaging(reader);
    const campaigns = (await this.store.list<CampaignDoc>(project, CAMPAIGN_KIND))
      .map(toListItem)
      .filter((campaign) => matchesAll(campaign, filters));
    return { data: pageOf(campaigns, paging), total: campaigns.length };
  }

  /**
   * Recipients of the given campaigns. A contact that received several of them is one item
   * whose metrics add up over those campaigns; `metrics` holds exactly the requested statuses.
   * Ids of no campaign of the project select nothing (the specification states no error).
   * `count` is the number of items answered (within `limit`), `total_count` before paging.
   */
  async contacts(project: number, body: unknown): Promise<{ data: CampaignRecipient[]; count: number; total_count: number }> {
    const reader = FieldReader.ofListBody(body);
    const metricIds = readMetricIds(reader);
    const campaignIds = new Set(readCampaignIds(reader).map(String));
    const paging = readPaging(reader);
    const campaigns = await this.store.list<CampaignDoc>(project, CAMPAIGN_KIND, (doc) => campaignIds.has(doc.id));
    const recipients = mergeRecipients(campaigns, metricIds);
    const data = pageOf(recipients, paging);
    return { data, count: data.length, total_count: recipients.length };
  }
}

function toListItem(doc: StoredDocument<CampaignDoc>): CampaignListItem {
  return { id: Number(doc.id), title: doc.title, status_id: doc.status_id };
}

/** One item per contact, in order of first appearance, with the requested metrics summed. */
function mergeRecipients(campaigns: CampaignDoc[], metricIds: RecipientStatus[]): CampaignRecipient[] {
  const byContact = new Map<string, CampaignRecipient>();
  for (const recipient of campaigns.flatMap((campaign) => campaign.recipients)) {
    let merged = byContact.get(recipient.contact);
    if (!merged) {
      merged = { contact: recipient.contact, metrics: Object.fromEntries(metricIds.map((id) => [id, 0])) };
      byContact.set(recipient.contact, merged);
    }
    for (const id of metricIds) merged.metrics[id] = (merged.metrics[id] ?? 0) + (recipient.metrics[id] ?? 0);
  }
  return [...byContact.values()];
}
