/** Document kind and shapes of e-mail campaigns (Resources: "Email campaign and recipient"). */
export const CAMPAIGN_KIND = 'email_campaign';

/** Recipient statuses; the keys a recipient's `metrics` may carry. */
export const RECIPIENT_STATUSES = ['sent', 'delivered', 'opened', 'click', 'unsubscribe', 'spam'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** Fields the campaign list may filter on. */
export const CAMPAIGN_FILTER_FIELDS = ['id', 'title', 'status_id'] as const;

/** One recipient of one campaign: how many of its e-mails reached each status. */
export interface CampaignRecipientDoc {
  /** e-mail address */
  contact: string;
  metrics: Record<RecipientStatus, number>;
}

export interface CampaignDoc {
  title: string;
  /** status of the mailing, such as `sent` or `draft` */
  status_id: string;
  recipients: CampaignRecipientDoc[];
}

/** Campaign list item: the fields the specification shows. */
export interface CampaignListItem {
  id: number;
  title: string;
  status_id: string;
}

/** Recipient answer: `metrics` holds exactly the requested statuses. */
export interface CampaignRecipient {
  contact: string;
  metrics: Partial<Record<RecipientStatus, number>>;
}
