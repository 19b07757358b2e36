/** Document kinds of e-mail tracking (Resources: "Tracked email"). */
export const EMAIL_KIND = 'tracked_email';
export const ATTACHMENT_KIND = 'email_attachment';

export interface TrackedEmailDoc {
  /** `YYYY-MM-DDTHH:MM:SS+0000` */
  date: string;
  email_from: string;
  email_to: string;
  subject: string;
  body: string;
  visit_id: string;
  order_id: string;
  attachment_ids: number[];
}

/** A stored file; its id is one of the e-mail's `attachment_ids`. */
export interface AttachmentDoc {
  email_id: string;
  filename: string;
  content_type: string;
  content_base64: string;
}
