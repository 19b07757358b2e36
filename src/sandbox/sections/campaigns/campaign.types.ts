/** Document kind and stored shape of e-mail campaigns (Resources: "Email campaign and recipient"). */
import type { Campaign, CampaignRecipient, RecipientStatus } from '../../../tracker/types/clients.types';

export type { CampaignRecipient, RecipientStatus };

export const CAMPAIGN_KIND = 'email_campaign';

/** Recipient statuses; the keys a recipient's `metrics` may carry. */
export const RECIPIENT_STATUSES = [
  'sent', 'delivered', 'opened', 'click', 'unsubscribe', 'spam',
] as const satisfies readonly RecipientStatus[];

/** Fields the campaign list may filter on. */
export const CAMPAIGN_FILTER_FIELDS = ['id', 'title', 'status_id'] as const;

/** One recipient of one campaign: how many of its e-mails reached each status. */
export interface CampaignRecipientDoc extends CampaignRecipient {
  metrics: Record<RecipientStatus, number>;
}

export interface CampaignDoc {
  title: string;
  /** status of the mailing, such as `sent` or `draft` */
  status_id: string;
  recipients: CampaignRecipientDoc[];
}

/** Campaign list item: the fields the specification shows. */
export type CampaignListItem = Pick<Campaign, 'id' | 'title' | 'status_id'>;
